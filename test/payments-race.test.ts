import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hiddenFormFields } from './browser.js';
import { createTestDatabase, onPostgres, type TestDatabase } from './helpers.js';
import { freePort, type Running, run, waitReady } from './service-process.js';

/**
 * Two admins moving the same payment's money at once, each through another process of the store on one PostgreSQL
 * database: the ledger reserves a capture or refund under the order's row lock before the gateway is called, so
 * together they can never move more than there is.
 */
const ADMIN = { email: 'race-admin@example.com', password: 'race admin password' };

describe.skipIf(!onPostgres)('payments moved by two processes at once (PostgreSQL)', () => {
  let db: TestDatabase;
  let procs: Running[] = [];
  let bases: string[] = [];
  let token = '';
  const dirs: string[] = [];

  const call = async (
    base: string,
    request: { method: string; url: string; body?: unknown; headers?: Record<string, string> },
  ) => {
    const { method, url, body, headers = {} } = request;
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        authorization: `Bearer ${token}`,
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    await db.database.close(); // the processes open it themselves
    const ports = [await freePort(), await freePort()];
    bases = ports.map((port) => `http://127.0.0.1:${port}`);
    procs = ports.map((port) => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'sf-race-'));
      dirs.push(dir);
      return run('main.ts', {
        DATABASE_URL: db.url ?? '',
        PORT: String(port),
        DATA_DIR: dir,
        JWT_SECRET: 'shared-secret-of-at-least-thirty-two-bytes',
        PAYMENT_PLUGINS: 'sandbox',
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        LOG_LEVEL: 'warn',
        WEBHOOK_RATE_LIMIT_PER_MINUTE: '100000',
      });
    });
    await Promise.all(procs.map((p, i) => waitReady(ports[i] ?? 0, p)));
    const login = await fetch(`${bases[0]}/user/storefront/api/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    token = ((await login.json()) as { access: string }).access;
    const product = await call(bases[0] ?? '', {
      method: 'POST',
      url: '/product/dashboard/api/products/',
      body: { name: 'Race', variants: [{ alias: 'race-1', name: 'Race', price: '25.00', stock: 1000 }] },
    });
    expect(product.status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    for (const p of procs) p.child.kill('SIGTERM');
    await Promise.all(procs.map((p) => p.exited));
    await db?.drop().catch(() => {});
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** A guest order of 25.00 paid through the sandbox's checkout page; its payment's id. */
  async function paidOrder(n: number): Promise<{ alias: string; paymentId: number }> {
    const base = bases[0] ?? '';
    const placed = await fetch(`${base}/order/storefront/api/guest-user-order-create/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        variants: [{ alias: 'race-1', quantity: 1 }],
        shipping_address: { country: 'US', email: `race${n}@example.com` },
      }),
    });
    const order = (await placed.json()) as { order_alias: string; order_token: string };
    const started = await fetch(`${base}/payment/storefront/api/start-payment/sandbox/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-order-token': order.order_token },
      body: JSON.stringify({ order_alias: order.order_alias }),
    });
    const { url, payment_id } = (await started.json()) as { url: string; payment_id: number };
    const fields = hiddenFormFields(await (await fetch(url)).text());
    fields.set('decision', 'pay');
    const paid = await fetch(`${base}/payment/sandbox/checkout/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: fields.toString(),
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    return { alias: order.order_alias, paymentId: payment_id };
  }

  const refundAll = (paymentId: number, count: number, body: object) =>
    Promise.all(
      Array.from({ length: count }, (_, i) =>
        call(bases[i % 2] ?? '', { method: 'POST', url: `/payment/dashboard/api/payments/${paymentId}/refund/`, body }),
      ),
    );

  it('refunds a payment in full once when 20 admins refund it at once through two processes', async () => {
    const { alias, paymentId } = await paidOrder(1);
    const answers = await refundAll(paymentId, 20, {});
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 422)).toBe(true);
    expect(answers.find((a) => a.status === 422)?.body).toMatchObject({ code: 'refund_exceeds_refundable' });
    const order = await call(bases[1] ?? '', { method: 'GET', url: `/order/dashboard/api/orders/${alias}/` });
    expect(order.body).toMatchObject({
      payment_status: 'refunded',
      ledger: { captured: '25.00', refunded: '25.00', refundable: '0.00', balance_due: '0.00' },
    });
  }, 60_000);

  it('never refunds more than was captured when 12 admins refund 3.00 each at once (8 fit in 25.00)', async () => {
    const { alias, paymentId } = await paidOrder(2);
    const answers = await refundAll(paymentId, 12, { amount: '3.00' });
    expect(answers.filter((a) => a.status === 200)).toHaveLength(8);
    expect(answers.filter((a) => a.status === 422)).toHaveLength(4);
    const order = await call(bases[0] ?? '', { method: 'GET', url: `/order/dashboard/api/orders/${alias}/` });
    expect(order.body).toMatchObject({
      payment_status: 'partially_refunded',
      ledger: { refunded: '24.00', credited: '24.00', refundable: '1.00', balance_due: '0.00' },
    });
  }, 60_000);

  it('refunds once for one Idempotency-Key sent 10 times at once through two processes', async () => {
    const { alias, paymentId } = await paidOrder(3);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(bases[i % 2] ?? '', {
          method: 'POST',
          url: `/payment/dashboard/api/payments/${paymentId}/refund/`,
          body: { amount: '5.00' },
          headers: { 'idempotency-key': 'race-refund-once' },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const order = await call(bases[1] ?? '', { method: 'GET', url: `/order/dashboard/api/orders/${alias}/` });
    expect(order.body).toMatchObject({ ledger: { refunded: '5.00' } });
  }, 60_000);
});

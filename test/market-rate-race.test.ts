import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderLines, orders } from '../src/db/schema.js';
import { adminApi, type AdminApi } from './fixtures.js';
import {
  bearer,
  buildTestApp,
  expectProblem,
  type Inject,
  json,
  onPostgres,
  secondProcess,
  type SignedIn,
  signInAdmin,
  type TestApp,
} from './helpers.js';

// A market's rate changed while orders are placed in it (issue #28, decision 0031): the rate is locked at the quote by
// `expected_total`, and a placement checks under its transaction that its market still prices as it priced
// (placement.decide.ts `priceChanged`). The store: USD, a yen market `jp` (rate 150, no rounding rule) and a pen at
// 10.00 USD, so an order of q pens at rate r is exactly q × 10 × r yen: ¥1,500 a pen at 150, ¥1,510 at 151.

const place = (inject: Inject, payload: object) =>
  inject({ method: 'POST', url: '/order/storefront/api/guest-user-order-create/', payload });
const estimate = (inject: Inject, payload: object) =>
  inject({ method: 'POST', url: '/order/storefront/api/estimate/', payload });
const order = (quantity: number) => ({
  variants: [{ alias: 'rate-pen', quantity }],
  shipping_address: {
    first_name: 'Rin',
    last_name: 'Rate',
    street_address: '1 Chome',
    city: 'Tokyo',
    postal_code: '100-0001',
    country: 'JP',
    email: 'rin@example.com',
  },
});

async function setUp(t: TestApp) {
  const admin = await signInAdmin(t);
  const api = adminApi(t, admin);
  await api.product({ name: 'Pen', variants: [{ alias: 'rate-pen', name: 'Pen', price: '10.00', stock: 100_000 }] });
  const jp = await api.post('/market/dashboard/api/markets/', {
    code: 'jp',
    name: 'Japan',
    currency: 'JPY',
    exchange_rate: '150',
    countries: ['JP'],
  });
  return { admin, api, jpId: jp.id as number };
}

/** Every order placed in `jp`: its total, the rate it stored, and its lines' units, from the database. */
async function placedInJapan(t: TestApp) {
  const rows = await t.database.db
    .select({ id: orders.id, total: orders.total, rate: orders.exchangeRate, currency: orders.currency })
    .from(orders);
  const lines = await t.database.db
    .select({ orderId: orderLines.orderId, quantity: orderLines.quantity, unitPrice: orderLines.unitPrice })
    .from(orderLines);
  return rows.map((row) => ({
    ...row,
    lines: lines.filter((l) => l.orderId === row.id),
  }));
}

/** Asserts an order's total is the sum of its lines at the rate it stored: ¥(10 × rate) a pen. */
function expectPricedAtItsRate(row: Awaited<ReturnType<typeof placedInJapan>>[number]) {
  const rate = Number(row.rate);
  expect(Number.isInteger(rate), `rate ${row.rate}`).toBe(true);
  const units = row.lines.reduce((n, l) => n + l.quantity, 0);
  for (const line of row.lines) expect(line.unitPrice, `order ${row.id}`).toBe(10 * rate);
  expect(row.total, `order ${row.id} at ${row.rate}`).toBe(units * 10 * rate);
}

describe('a rate changed before a placement of the same process', () => {
  let t: TestApp;
  let api: AdminApi;
  let jpId: number;
  beforeAll(async () => {
    t = await buildTestApp();
    ({ api, jpId } = await setUp(t));
  });
  afterAll(() => t.close());

  it('refuses with 409 total_changed a placement expecting the total of the old rate, placing nothing', async () => {
    const inject: Inject = (opts) => t.app.inject(opts);
    expect(json(await estimate(inject, order(2))).total).toBe('3000');
    await api.patch(`/market/dashboard/api/markets/${jpId}/`, { exchange_rate: '151' });
    const body = expectProblem(await place(inject, { ...order(2), expected_total: '3000' }), 409, 'total_changed');
    expect(body.estimate).toMatchObject({ total: '3020', currency: 'JPY', market: { exchange_rate: '151' } });
    expect(await placedInJapan(t)).toEqual([]);
    const placed = json(await place(inject, { ...order(2), expected_total: '3020' }));
    expect(placed).toMatchObject({ total: '3020', market: { code: 'jp', exchange_rate: '151' } });
    const [row] = await placedInJapan(t);
    expect(row).toMatchObject({ total: 3020, rate: '151.0000000000', currency: 'JPY' });
  });
});

describe.runIf(onPostgres)('a rate changed by another process while orders are placed (PostgreSQL)', () => {
  let t: TestApp;
  let other: Awaited<ReturnType<typeof secondProcess>> | undefined;
  let admin: SignedIn;
  let jpId: number;
  /** Orders are placed on the first process; the rate is changed through the second. */
  let placing: Inject;
  let changing: Inject;

  beforeAll(async () => {
    t = await buildTestApp();
    other = await secondProcess(t);
    ({ admin, jpId } = await setUp(t));
    const second = other.app;
    placing = (opts) => t.app.inject(opts);
    changing = (opts) => second.inject(opts);
  }, 60_000);
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  const changeRate = async (rate: number) => {
    const res = await changing({
      method: 'PATCH',
      url: `/market/dashboard/api/markets/${jpId}/`,
      headers: bearer(admin.access),
      payload: { exchange_rate: String(rate) },
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('never places an order at a rate changed before it was sent, though its process has not heard yet', async () => {
    // The first process's markets are in memory and hear of the second's change through the change feed, later: the
    // placement, sent as soon as the change committed, still prices at the old rate, and is caught under its lock.
    let rate = 150;
    for (let round = 1; round <= 10; round++) {
      const quantity = 1 + (round % 3);
      const expected = json(await estimate(placing, order(quantity))).total;
      expect(expected).toBe(String(quantity * 10 * rate));
      rate += 1;
      await changeRate(rate);
      const body = expectProblem(
        await place(placing, { ...order(quantity), expected_total: expected }),
        409,
        'total_changed',
      );
      expect(body.estimate, `round ${round}`).toMatchObject({
        total: String(quantity * 10 * rate),
        market: { exchange_rate: String(rate) },
      });
    }
    expect(await placedInJapan(t)).toEqual([]);
  });

  it('places each order at its stored rate and expected total, or refuses it with 409, under changes', async () => {
    let committed = 300;
    await changeRate(committed);
    const changes = (async () => {
      for (let i = 1; i <= 25; i++) {
        await changeRate(300 + i);
        committed = 300 + i;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    let changing = true;
    void changes.finally(() => {
      changing = false;
    });
    const answers: { res: LightMyRequestResponse; expected: string; sentAt: number }[] = [];
    const customer = async (n: number) => {
      while (changing) {
        const quantity = 1 + (n % 3);
        const expected = json(await estimate(placing, order(quantity))).total as string;
        // The rate committed before the placement was sent: the order may not be placed at an older one.
        const sentAt = committed;
        const res = await place(placing, { ...order(quantity), expected_total: expected });
        answers.push({ res, expected, sentAt });
      }
    };
    await Promise.all([changes, ...[0, 1, 2, 3, 4, 5].map(customer)]);

    const placed = answers.filter((a) => a.res.statusCode === 201);
    const refused = answers.filter((a) => a.res.statusCode !== 201);
    expect(placed.length, 'some orders are placed').toBeGreaterThan(0);
    for (const a of refused) {
      const body = expectProblem(a.res, 409, 'total_changed');
      expect(body.estimate.total).not.toBe(a.expected);
    }
    for (const a of placed) {
      const body = json(a.res);
      expect(body.total).toBe(a.expected);
      expect(Number(body.market.exchange_rate)).toBeGreaterThanOrEqual(a.sentAt);
    }
    const rows = await placedInJapan(t);
    expect(rows).toHaveLength(placed.length);
    for (const row of rows) expectPricedAtItsRate(row);
  }, 120_000);
});

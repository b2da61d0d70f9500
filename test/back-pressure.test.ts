import type { LightMyRequestResponse } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashCartToken } from '../src/cart/cart-token.js';
import { carts, orders, productVariants } from '../src/db/schema.js';
import {
  bearer,
  buildTestApp,
  expectProblem,
  json,
  onPostgres,
  type SignedIn,
  signInAdmin,
  type TestApp,
  uniqueEmail,
} from './helpers.js';

const TIMEOUT_MS = 300;
const guestCreate = '/order/storefront/api/guest-user-order-create/';
let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  t = await buildTestApp({
    config: {
      placementTimeoutMs: TIMEOUT_MS,
      placementQueueLimit: 2,
      cartWriteTimeoutMs: TIMEOUT_MS,
      cartWriteQueueLimit: 2,
    },
  });
  admin = await signInAdmin(t);
});
afterAll(() => t.close());

let seq = 0;
async function variant(stock: number) {
  seq += 1;
  const alias = `bp-${seq}`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/product/dashboard/api/products/',
    headers: bearer(admin.access),
    payload: { name: `Back-pressure ${seq}`, variants: [{ alias, name: alias, price: '10.00', stock }] },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return { alias, id: json(res).variants[0].id as number };
}

const payloadFor = (alias: string, email: string) => ({
  variants: [{ alias, quantity: 1 }],
  shipping_address: {
    first_name: 'Bo',
    last_name: 'Busy',
    street_address: '1 Main St',
    city: 'Austin',
    postal_code: '73301',
    country: 'US',
    email,
  },
});
const place = (alias: string, email: string) =>
  t.app.inject({ method: 'POST', url: guestCreate, payload: payloadFor(alias, email) });
/** Prices and rates read into memory, so that the write is a placement's only wait on the database. */
const warmUp = async (alias: string) => {
  const payload = payloadFor(alias, 'w@example.com');
  const res = await t.app.inject({ method: 'POST', url: '/order/storefront/api/estimate/', payload });
  expect(res.statusCode).toBe(200);
};
const stockOf = async (id: number) =>
  (await t.database.db.select().from(productVariants).where(eq(productVariants.id, id)))[0]?.stock;
const ordersOf = (email: string) => t.database.db.select().from(orders).where(eq(orders.email, email));

/**
 * Holds a row's lock from outside the app until released: on PostgreSQL from a second connection (the app's batch
 * waits on the row); on the embedded database, which has one connection, from a transaction on it (the batch waits
 * for the connection).
 */
async function holdRowLock(table: 'product_variants' | 'carts', id: number): Promise<() => Promise<void>> {
  if (onPostgres) {
    const client = new pg.Client({ connectionString: t.url });
    await client.connect();
    await client.query('begin');
    await client.query(`select id from ${table} where id = $1 for update`, [id]);
    return async () => {
      await client.query('rollback');
      await client.end();
    };
  }
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked = () => {};
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const held = t.database.db.transaction(async (tx) => {
    await tx.execute(sql`select id from ${sql.identifier(table)} where id = ${id} for update`);
    locked();
    await released;
  });
  await isLocked;
  return async () => {
    release();
    await held;
  };
}

/** What the app may still write once a stall ends, written by now. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 2 * TIMEOUT_MS));

describe('placement back-pressure', () => {
  it(
    'answers 503 database_unavailable with Retry-After when a held lock keeps the placement past '
      + 'PLACEMENT_TIMEOUT_MS, and writes nothing',
    async () => {
      const v = await variant(5);
      const email = uniqueEmail('stalled');
      await warmUp(v.alias);
      const release = await holdRowLock('product_variants', v.id);
      let res: LightMyRequestResponse;
      const started = Date.now();
      try {
        res = await place(v.alias, email);
      } finally {
        await release();
      }
      const waited = Date.now() - started;
      const body = expectProblem(res, 503, 'database_unavailable');
      expect(body.detail).toContain('nothing was placed');
      expect(res.headers['retry-after']).toBe('5');
      expect(waited).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
      expect(waited).toBeLessThan(TIMEOUT_MS + 2_000);
      await settle();
      expect(await ordersOf(email)).toEqual([]);
      expect(await stockOf(v.id)).toBe(5);
      // The stall over, the same order goes through.
      expect((await place(v.alias, email)).statusCode).toBe(201);
      expect(await stockOf(v.id)).toBe(4);
    },
  );

  it('refuses placements beyond the queue limit at once, times out the queued ones, writes none of them', async () => {
    const v = await variant(10);
    const emails = [1, 2, 3, 4].map((i) => uniqueEmail(`queued-${i}`));
    await warmUp(v.alias);
    const release = await holdRowLock('product_variants', v.id);
    let answers: { res: LightMyRequestResponse; waited: number }[];
    try {
      // One in flight, two queued (PLACEMENT_QUEUE_LIMIT=2), the last to reach the queue refused: which
      // request that is depends on how fast each was priced, not on the order they were sent in.
      answers = await Promise.all(
        emails.map(async (email) => {
          const started = Date.now();
          const res = await place(v.alias, email);
          return { res, waited: Date.now() - started };
        }),
      );
    } finally {
      await release();
    }
    for (const { res } of answers) expectProblem(res, 503, 'database_unavailable');
    const full = answers.filter(({ res }) => json(res).detail.includes('too many orders are waiting'));
    expect(full).toHaveLength(1);
    expect(full[0]!.waited).toBeLessThan(TIMEOUT_MS);
    const timedOut = answers.filter((a) => !full.includes(a));
    for (const { res, waited } of timedOut) {
      expect(json(res).detail).toContain('did not take the order in time');
      expect(waited).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    }
    await settle();
    for (const email of emails) expect(await ordersOf(email)).toEqual([]);
    expect(await stockOf(v.id)).toBe(10);

    const metrics = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(admin.access) });
    expect(metrics.body).toMatch(/^storefront_placements_refused_total\{reason="queue_full"\} 1$/m);
    expect(metrics.body).toMatch(/^storefront_placements_refused_total\{reason="deadline"\} [4-9]$/m);
  });
});

describe('cart write back-pressure', () => {
  const add = (token: string, variantId: number) =>
    t.app.inject({
      method: 'POST',
      url: '/cart/storefront/api/carts/add/',
      headers: { 'x-cart-token': token },
      payload: { product_variant_id: variantId, quantity: 1 },
    });
  const newCart = async (variantId: number) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/cart/storefront/api/carts/add/',
      payload: { product_variant_id: variantId, quantity: 1 },
    });
    expect(res.statusCode).toBe(200);
    const token = json(res).cart_token as string;
    const [row] = await t.database.db
      .select({ id: carts.id })
      .from(carts)
      .where(eq(carts.tokenHash, hashCartToken(token)));
    return { token, id: row?.id ?? 0 };
  };
  const quantityIn = async (token: string) =>
    json(await t.app.inject({ method: 'GET', url: '/cart/storefront/api/carts/', headers: { 'x-cart-token': token } }))
      .total_items;

  it(
    'answers 503 database_unavailable with Retry-After when a held cart lock keeps an add past '
      + 'CART_WRITE_TIMEOUT_MS, refuses adds beyond CART_WRITE_QUEUE_LIMIT at once, and changes nothing',
    async () => {
      const v = await variant(100);
      const cart = await newCart(v.id);
      const release = await holdRowLock('carts', cart.id);
      let answers: { res: LightMyRequestResponse; waited: number }[];
      try {
        // One in flight, two queued (CART_WRITE_QUEUE_LIMIT=2), the fourth refused at once.
        answers = await Promise.all(
          [1, 2, 3, 4].map(async () => {
            const started = Date.now();
            const res = await add(cart.token, v.id);
            return { res, waited: Date.now() - started };
          }),
        );
      } finally {
        await release();
      }
      for (const { res } of answers) {
        expectProblem(res, 503, 'database_unavailable');
        expect(res.headers['retry-after']).toBe('2');
      }
      const full = answers.filter(({ res }) => json(res).detail.includes('too many cart changes are waiting'));
      expect(full).toHaveLength(1);
      expect(full[0]!.waited).toBeLessThan(TIMEOUT_MS);
      for (const { res, waited } of answers.filter((a) => !full.includes(a))) {
        expect(json(res).detail).toContain('the cart was not changed');
        expect(waited).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
      }
      await settle();
      expect(await quantityIn(cart.token)).toBe(1);
      // The stall over, the same add goes through.
      expect((await add(cart.token, v.id)).statusCode).toBe(200);
      expect(await quantityIn(cart.token)).toBe(2);

      const metrics = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(admin.access) });
      expect(metrics.body).toMatch(/^storefront_cart_writes_refused_total\{reason="queue_full"\} 1$/m);
      expect(metrics.body).toMatch(/^storefront_cart_writes_refused_total\{reason="deadline"\} 3$/m);
    },
  );
});

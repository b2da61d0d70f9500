import { and, eq, sum } from 'drizzle-orm';
import pg from 'pg';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderLines, paymentOperations, payments, productVariants } from '../src/db/schema.js';
import { currencyFormat } from '../src/shared/money.js';
import { type AdminApi, adminApi, guestAddress, type PlacedOrder, placeGuestOrder } from './fixtures.js';
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
import { payWithSandbox } from './sandbox-gateway.js';

// Money races after the sale across two processes: the race tests of order edits (decision 0028) and fulfilments
// (decision 0027) send their concurrent requests to one process; here two app processes share one PostgreSQL
// database and the requests are split between them, so nothing one process holds (a pool, a cache, a queue) can keep
// them apart: only the database's row locks do. PostgreSQL only: the embedded database has one process.
//
// The store: USD, untaxed, no shipping methods. A mug at 8.00 and a teapot at 30.00; payments are held by the sandbox
// (PAYMENT_CAPTURE=manual) and taken as parcels ship (CAPTURE_ON_SHIPMENT). Each race runs a few rounds, each on its
// own order, so more than one interleaving is tried.

const ROUNDS = 4;
const usd = currencyFormat('USD');

describe.runIf(onPostgres)('money races across two processes on one PostgreSQL database', () => {
  let t: TestApp;
  let other: Awaited<ReturnType<typeof secondProcess>> | undefined;
  let admin: SignedIn;
  let api: AdminApi;
  /** The two processes: requests at index i go to `both[i % 2]`. */
  let both: [Inject, Inject];

  beforeAll(async () => {
    t = await buildTestApp({
      config: { paymentPlugins: ['sandbox'], paymentCapture: 'manual', captureOnShipment: true },
    });
    other = await secondProcess(t);
    const second = other.app;
    both = [(opts) => t.app.inject(opts), (opts) => second.inject(opts)];
    admin = await signInAdmin(t);
    api = adminApi(t, admin);
    await api.product({
      name: 'Mug',
      variants: [
        { alias: 'race-mug', name: 'Blue', price: '8.00', stock: 10_000 },
        { alias: 'race-teapot', name: 'Teapot', price: '30.00', stock: 10_000 },
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  const asAdmin = (inject: Inject, opts: InjectOptions & { url: string }) =>
    inject({ method: 'POST', payload: {}, ...opts, headers: bearer(admin.access) });
  const orderUrl = (order: PlacedOrder) => `/order/dashboard/api/orders/${order.order_alias}/`;
  const fulfillmentsUrl = (order: PlacedOrder) => `${orderUrl(order)}fulfillments/`;
  const orderOf = (order: PlacedOrder) => api.get(orderUrl(order));

  /** A guest order of 2 mugs and a teapot (46.00). */
  const mugsAndTeapot = () =>
    placeGuestOrder(t, {
      variants: [
        { alias: 'race-mug', quantity: 2 },
        { alias: 'race-teapot', quantity: 1 },
      ],
      shipping_address: guestAddress,
    });

  describe('an order edit and placements racing for the last units', () => {
    const guestOrder = (alias: string) => ({
      method: 'POST' as const,
      url: '/order/storefront/api/guest-user-order-create/',
      payload: { variants: [{ alias, quantity: 1 }], shipping_address: guestAddress },
    });

    it('sells exactly the stock, never more: 3 units, an edit adding 2 and orders of 1 on each process', async () => {
      for (let round = 1; round <= ROUNDS; round++) {
        const alias = `race-scarce-${round}`;
        const product = await api.product({
          name: `Scarce ${round}`,
          variants: [{ alias, name: 'Last ones', price: '5.00', stock: 3 }],
        });
        const scarceId = product.variants[0]!.id;
        const edited = await Promise.all(
          [1, 2].map(() =>
            placeGuestOrder(t, { variants: [{ alias: 'race-mug', quantity: 1 }], shipping_address: guestAddress }),
          ),
        );
        const editing = () =>
          edited.map((order, i) =>
            asAdmin(both[i]!, { url: `${orderUrl(order)}edits/`, payload: { lines: [{ alias, quantity: 2 }] } }),
          );
        const placing = () => [1, 2, 3].map((i) => both[i % 2]!(guestOrder(alias)));
        // The edits sent first in odd rounds and last in even ones, so they win some rounds and lose others.
        const [edits, placements] =
          round % 2 === 1
            ? await Promise.all([Promise.all(editing()), Promise.all(placing())])
            : await Promise.all([Promise.all(placing()), Promise.all(editing())]).then(([p, e]) => [e, p] as const);
        const codes = (answers: typeof edits) => answers.map((r) => r.statusCode).join(' ');
        const statuses = `round ${round}: edits ${codes(edits)}, orders ${codes(placements)}`;

        // The losers are told there is not enough stock, as a single process tells them; nothing else.
        for (const res of [...edits, ...placements])
          if (res.statusCode !== 201) expectProblem(res, 409, 'insufficient_stock');
        const won = (answers: typeof edits) => answers.filter((r) => r.statusCode === 201).length;
        // 7 units asked for 3, and all 3 go: stock never grows here, so while any was left every order of 1 took one.
        expect(2 * won(edits) + won(placements), statuses).toBe(3);
        const [variant] = await t.database.db.select().from(productVariants).where(eq(productVariants.id, scarceId));
        expect(variant?.stock, statuses).toBe(0);
        const [lines] = await t.database.db
          .select({ units: sum(orderLines.quantity).mapWith(Number) })
          .from(orderLines)
          .where(eq(orderLines.variantId, scarceId));
        expect(lines?.units, statuses).toBe(3);
        for (const [i, order] of edited.entries()) {
          const line = (await orderOf(order)).lines.find((l: { alias: string }) => l.alias === alias);
          expect(line?.quantity, statuses).toBe(edits[i]!.statusCode === 201 ? 2 : undefined);
        }
      }
    });
  });

  describe('two admins fulfilling the same units from two processes', () => {
    it('fulfils each unit once: of six asking for one of two mugs, two get one, four hear none is left', async () => {
      for (let round = 1; round <= ROUNDS; round++) {
        const order = await mugsAndTeapot();
        await api.patch(orderUrl(order), { status: 'approved' });
        const oneMug = { url: fulfillmentsUrl(order), payload: { lines: [{ alias: 'race-mug', quantity: 1 }] } };
        const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => asAdmin(both[i % 2]!, oneMug)));
        expect(answers.map((r) => r.statusCode).sort(), `round ${round}`).toEqual([201, 201, 409, 409, 409, 409]);
        for (const r of answers.filter((a) => a.statusCode === 409))
          expect(expectProblem(r, 409, 'fulfillment_exceeds_fulfillable')).toMatchObject({ fulfillable: 0 });
        expect(await orderOf(order)).toMatchObject({ status: 'processing', fulfillment_status: 'partially_fulfilled' });

        // "All the rest" from both at once: the teapot goes in one parcel, the other finds nothing left.
        const rest = await Promise.all(both.map((inject) => asAdmin(inject, { url: fulfillmentsUrl(order) })));
        const [made, refused] = rest[0]!.statusCode === 201 ? rest : [rest[1]!, rest[0]!];
        expect(json(made!).lines).toEqual([expect.objectContaining({ alias: 'race-teapot', quantity: 1 })]);
        expectProblem(refused!, 409, 'nothing_to_fulfill');

        const detail = await orderOf(order);
        expect(detail.fulfillment_status).toBe('fulfilled');
        const units = (detail.fulfillments as { lines: { alias: string; quantity: number }[] }[])
          .flatMap((f) => f.lines)
          .map((l) => `${l.alias}×${l.quantity}`)
          .sort();
        expect(units).toEqual(['race-mug×1', 'race-mug×1', 'race-teapot×1']);
      }
    });
  });

  describe('capture on shipment, parcels of one order shipped at once from two processes', () => {
    /** The order's 46.00 held by a sandbox authorization: approved, nothing to pay. */
    async function authorized(): Promise<PlacedOrder> {
      const order = await mugsAndTeapot();
      await payWithSandbox(t, order, 'payment.authorized');
      expect(await orderOf(order)).toMatchObject({ status: 'approved', payment_status: 'authorized' });
      return order;
    }

    /**
     * An authorized order's three parcels (a mug: 8.00, a mug, the teapot: 30.00), the first `count` of them shipped
     * at once, split over both processes.
     */
    async function shipAtOnce(count: 2 | 3): Promise<{ order: PlacedOrder; shipped: LightMyRequestResponse[] }> {
      const order = await authorized();
      const mug = { url: fulfillmentsUrl(order), payload: { lines: [{ alias: 'race-mug', quantity: 1 }] } };
      const parcels: number[] = [];
      for (const parcel of [mug, mug, { url: fulfillmentsUrl(order) }])
        parcels.push(json(await asAdmin(both[0], parcel)).id);
      const shipped = await Promise.all(
        parcels.slice(0, count).map((id, i) => asAdmin(both[i % 2]!, { url: `${fulfillmentsUrl(order)}${id}/ship/` })),
      );
      for (const res of shipped) expect(res.statusCode, res.body).toBe(200);
      return { order, shipped };
    }
    type Capture = { amount: string; status: string; detail: string | null };
    const capturesOf = (shipped: LightMyRequestResponse[]) => shipped.flatMap((res) => json(res).captures as Capture[]);
    const minor = (amount: string) => usd.parse(amount);
    const captureRecords = (order: PlacedOrder) =>
      t.database.db
        .select({ status: paymentOperations.status, amount: paymentOperations.amount })
        .from(paymentOperations)
        .where(and(eq(paymentOperations.orderId, order.order_id), eq(paymentOperations.kind, 'capture')));

    it('never captures more than is held, and the answers, the payment and the ledger agree on what was', async () => {
      for (let round = 1; round <= ROUNDS; round++) {
        const { order, shipped } = await shipAtOnce(3);
        const answered = capturesOf(shipped)
          .filter((c) => c.status === 'succeeded')
          .reduce((total, c) => total + minor(c.amount), 0);
        expect(answered, `round ${round}`).toBeGreaterThan(0);
        expect(answered, `round ${round}`).toBeLessThanOrEqual(4600);
        const format = (amount: number) => usd.format(amount);
        expect(await orderOf(order)).toMatchObject({
          status: 'shipped',
          fulfillment_status: 'shipped',
          ledger: { captured: format(answered), capturable: '0.00', to_pay: format(4600 - answered) },
        });
        // What was not captured was released (every capture is final); no record is left pending.
        const [payment] = await t.database.db.select().from(payments).where(eq(payments.orderId, order.order_id));
        expect(payment).toMatchObject({
          amountAuthorized: 4600,
          amountCaptured: answered,
          amountVoided: 4600 - answered,
        });
        const records = await captureRecords(order);
        expect(records.every((r) => r.status === 'succeeded')).toBe(true);
        expect(records.reduce((total, r) => total + r.amount, 0)).toBe(answered);
      }
    });

    // Found by this test: both parcels' captures used to succeed, each final, on one authorization, the second
    // counting again what the first was taking (8.00 and 16.00 for 16.00 shipped), because what was due was read
    // outside the order's lock. Now it is reserved under the lock, and a payment with a capture in flight takes none.
    it('takes the money of each shipped unit once, in one final capture', async () => {
      for (let round = 1; round <= ROUNDS; round++) {
        const { order, shipped } = await shipAtOnce(2);
        const succeeded = capturesOf(shipped).filter((c) => c.status === 'succeeded');
        expect(succeeded, `round ${round}`).toEqual([
          expect.objectContaining({ amount: expect.stringMatching(/^(8|16)\.00$/) }),
        ]);
        expect((await orderOf(order)).ledger.captured).toBe(succeeded[0]!.amount);
        expect(await captureRecords(order)).toEqual([{ status: 'succeeded', amount: minor(succeeded[0]!.amount) }]);
      }
    });

    // Found by this test: a parcel whose capture lost the race was answered with a capture `failed` although nothing
    // failed (the winner's final capture released the rest, as shipping in turn does, which answers no capture).
    it('answers a parcel that finds the money taken with no capture, as shipping in turn does', async () => {
      for (let round = 1; round <= ROUNDS; round++) {
        const { shipped } = await shipAtOnce(3);
        expect(
          capturesOf(shipped).filter((c) => c.status !== 'succeeded'),
          `round ${round}`,
        ).toEqual([]);
      }
    });
  });

  describe('a return received and refunded by two admins at once, one on each process', () => {
    it('restocks once and refunds once: one answer 200 of each, the others 409', async () => {
      for (let round = 1; round <= ROUNDS; round++) {
        const order = await mugsAndTeapot();
        await payWithSandbox(t, order, 'payment.authorized');
        const parcel = json(await asAdmin(both[0], { url: fulfillmentsUrl(order) }));
        expect(
          json(await asAdmin(both[0], { url: `${fulfillmentsUrl(order)}${parcel.id}/ship/` })).captures,
        ).toMatchObject([{ amount: '46.00', status: 'succeeded' }]);
        const returnsUrl = `${orderUrl(order)}returns/`;
        const asked = json(
          await asAdmin(both[1], {
            url: returnsUrl,
            payload: { lines: [{ alias: 'race-mug', quantity: 2, reason: 'damaged' }] },
          }),
        );
        const stock = async () =>
          (await t.database.db.select().from(productVariants).where(eq(productVariants.alias, 'race-mug')))[0]?.stock;
        const before = await stock();
        const statuses = (answers: LightMyRequestResponse[]) => answers.map((r) => r.statusCode).sort();
        const received = await Promise.all(
          [0, 1, 2, 3].map((i) => asAdmin(both[i % 2]!, { url: `${returnsUrl}${asked.id}/receive/` })),
        );
        expect(statuses(received), `round ${round}`).toEqual([200, 409, 409, 409]);
        expect(await stock(), `round ${round}`).toBe((before ?? 0) + 2);
        const refunded = await Promise.all(
          [0, 1, 2, 3].map((i) => asAdmin(both[i % 2]!, { url: `${returnsUrl}${asked.id}/refund/` })),
        );
        expect(statuses(refunded), `round ${round}`).toEqual([200, 409, 409, 409]);
        for (const res of refunded) if (res.statusCode === 409) expectProblem(res, 409, 'invalid_transition');
        expect((await orderOf(order)).ledger, `round ${round}`).toMatchObject({
          returned: '16.00',
          refunded: '16.00',
          credited: '0.00',
          balance_due: '0.00',
        });
        const refunds = await t.database.db
          .select({ status: paymentOperations.status, amount: paymentOperations.amount })
          .from(paymentOperations)
          .where(and(eq(paymentOperations.orderId, order.order_id), eq(paymentOperations.returnId, asked.id)));
        expect(refunds, `round ${round}`).toEqual([{ status: 'succeeded', amount: 1600 }]);
      }
    });
  });

  describe('a paid order cancelled with its refund on one process while the other ships or makes its parcel', () => {
    const mugStock = async () =>
      (await t.database.db.select().from(productVariants).where(eq(productVariants.alias, 'race-mug')))[0]?.stock ?? 0;
    /** A guest order of 2 mugs and a teapot, its 46.00 taken by the sandbox: approved. */
    async function paid(): Promise<PlacedOrder> {
      const order = await mugsAndTeapot();
      await payWithSandbox(t, order, 'payment.succeeded');
      expect(await orderOf(order)).toMatchObject({ status: 'approved', payment_status: 'paid' });
      return order;
    }
    const cancelWithRefund = (inject: Inject, order: PlacedOrder) =>
      asAdmin(inject, { method: 'PATCH', url: orderUrl(order), payload: { status: 'cancelled', refund: true } });
    const refundsOf = (order: PlacedOrder) =>
      t.database.db
        .select({ status: paymentOperations.status, amount: paymentOperations.amount })
        .from(paymentOperations)
        .where(and(eq(paymentOperations.orderId, order.order_id), eq(paymentOperations.kind, 'refund')));
    type Send = (inject: Inject) => Promise<LightMyRequestResponse>;
    /**
     * Both requests, one on each process, queued on the order's row lock (held here until both wait on it): the
     * first sent reaches the lock first in odd rounds, the second in even ones, so each side wins some rounds.
     */
    async function queuedOnTheLock(round: number, order: PlacedOrder, requests: [Send, Send]) {
      const holder = new pg.Client({ connectionString: t.url });
      await holder.connect();
      const waitingOnLocks = async (count: number) => {
        for (let tries = 0; tries < 200; tries++) {
          const { rows } = await holder.query(
            `select count(*)::integer as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`,
          );
          if (rows[0].n >= count) return;
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        throw new Error(`round ${round}: ${count} request(s) never waited on the order's lock`);
      };
      try {
        await holder.query('begin');
        await holder.query('select id from orders where id = $1 for update', [order.order_id]);
        const [early, late] = round % 2 === 1 ? [0, 1] : [1, 0];
        const answers: Promise<LightMyRequestResponse>[] = [];
        answers[early] = requests[early]!(both[early]!);
        await waitingOnLocks(1);
        answers[late] = requests[late]!(both[late]!);
        await waitingOnLocks(2);
        await holder.query('rollback');
        return (await Promise.all(answers)) as [LightMyRequestResponse, LightMyRequestResponse];
      } finally {
        await holder.end();
      }
    }

    it('ships the parcel or cancels and refunds the order, never both: the loser is 409, stock back once', async () => {
      for (let round = 1; round <= ROUNDS; round++) {
        const order = await paid();
        const parcel = json(await asAdmin(both[0], { url: fulfillmentsUrl(order) }));
        expect(await orderOf(order)).toMatchObject({ status: 'processing', fulfillment_status: 'fulfilled' });
        const before = await mugStock();
        const [ship, cancel] = await queuedOnTheLock(round, order, [
          (inject) => asAdmin(inject, { url: `${fulfillmentsUrl(order)}${parcel.id}/ship/` }),
          (inject) => cancelWithRefund(inject, order),
        ]);
        const statuses = `round ${round}: ship ${ship.statusCode}, cancel ${cancel.statusCode}`;
        expect([ship.statusCode, cancel.statusCode].sort(), statuses).toEqual([200, 409]);
        expectProblem(ship.statusCode === 409 ? ship : cancel, 409, 'invalid_transition');
        const detail = await orderOf(order);
        if (ship.statusCode === 200) {
          expect(detail, statuses).toMatchObject({
            status: 'shipped',
            fulfillment_status: 'shipped',
            ledger: { captured: '46.00', refunded: '0.00' },
          });
          expect(await refundsOf(order), statuses).toEqual([]);
          expect(await mugStock(), statuses).toBe(before);
        } else {
          expect(detail, statuses).toMatchObject({
            status: 'cancelled',
            fulfillments: [expect.objectContaining({ id: parcel.id, status: 'cancelled' })],
            ledger: { refunded: '46.00', balance_due: '0.00' },
          });
          expect(await refundsOf(order), statuses).toEqual([{ status: 'succeeded', amount: 4600 }]);
          expect(await mugStock(), statuses).toBe(before + 2);
        }
      }
    });

    it('makes no parcel of a cancelled order: one made first is cancelled with it, the stock back once', async () => {
      for (let round = 1; round <= ROUNDS; round++) {
        const order = await paid();
        const before = await mugStock();
        const [create, cancel] = await queuedOnTheLock(round, order, [
          (inject) => asAdmin(inject, { url: fulfillmentsUrl(order) }),
          (inject) => cancelWithRefund(inject, order),
        ]);
        const statuses = `round ${round}: create ${create.statusCode}, cancel ${cancel.statusCode}`;
        expect(cancel.statusCode, statuses).toBe(200);
        if (create.statusCode !== 201) expectProblem(create, 409, 'order_not_fulfillable');
        const detail = await orderOf(order);
        expect(detail, statuses).toMatchObject({ status: 'cancelled', ledger: { refunded: '46.00' } });
        expect(
          (detail.fulfillments as { status: string }[]).map((f) => f.status),
          statuses,
        ).toEqual(create.statusCode === 201 ? ['cancelled'] : []);
        expect(await refundsOf(order), statuses).toEqual([{ status: 'succeeded', amount: 4600 }]);
        expect(await mugStock(), statuses).toBe(before + 2);
      }
    });

    it('refunds once when two admins cancel with a refund at once: one 200, the others 409', async () => {
      for (let round = 1; round <= ROUNDS; round++) {
        const order = await paid();
        const before = await mugStock();
        const answers = await Promise.all([0, 1, 2, 3].map((i) => cancelWithRefund(both[i % 2]!, order)));
        expect(answers.map((r) => r.statusCode).sort(), `round ${round}`).toEqual([200, 409, 409, 409]);
        for (const res of answers) if (res.statusCode === 409) expectProblem(res, 409, 'invalid_transition');
        expect((await orderOf(order)).ledger, `round ${round}`).toMatchObject({
          refunded: '46.00',
          balance_due: '0.00',
        });
        expect(await refundsOf(order), `round ${round}`).toEqual([{ status: 'succeeded', amount: 4600 }]);
        expect(await mugStock(), `round ${round}`).toBe(before + 2);
      }
    });
  });
});

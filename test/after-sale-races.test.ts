import { and, eq, sum } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderLines, paymentOperations, payments, productVariants } from '../src/db/schema.js';
import { signSandboxWebhook } from '../src/payments/plugins/sandbox/index.js';
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

// Money races after the sale across two processes: the race tests of order edits (decision 0028) and fulfilments
// (decision 0027) send their concurrent requests to one process; here two app processes share one PostgreSQL
// database and the requests are split between them, so nothing one process holds (a pool, a cache, a queue) can keep
// them apart: only the database's row locks do. PostgreSQL only: the embedded database has one process.
//
// The store: USD, untaxed, no shipping methods. A mug at 8.00 and a teapot at 30.00; payments are held by the sandbox
// (PAYMENT_CAPTURE=manual) and taken as parcels ship (CAPTURE_ON_SHIPMENT). Each race runs a few rounds, each on its
// own order, so more than one interleaving is tried.

const ROUNDS = 4;
/** Both processes' plugin secrets are `test-secret-<plugin>-<name>-…` (test/helpers.ts): the sandbox's webhook key. */
const SANDBOX_SECRET = 'test-secret-sandbox-webhook-0123456789abcdef0123456789';

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

    it('sells exactly the stock, never more: an edit adding 2 on one process, 3 orders of 1 on the other', async () => {
      for (let round = 1; round <= ROUNDS; round++) {
        const alias = `race-scarce-${round}`;
        const product = await api.product({
          name: `Scarce ${round}`,
          variants: [{ alias, name: 'Last ones', price: '5.00', stock: 3 }],
        });
        const scarceId = product.variants[0]!.id;
        const edited = await placeGuestOrder(t, {
          variants: [{ alias: 'race-mug', quantity: 1 }],
          shipping_address: guestAddress,
        });
        const editing = () =>
          asAdmin(both[0], { url: `${orderUrl(edited)}edits/`, payload: { lines: [{ alias, quantity: 2 }] } });
        const placing = () => [1, 2, 3].map(() => both[1](guestOrder(alias)));
        // The edit sent first, then last, so it wins some rounds and loses others.
        const [edit, ...placements] =
          round % 2 === 1
            ? await Promise.all([editing(), ...placing()])
            : await Promise.all([...placing(), editing()]).then((all) => [all[3]!, ...all.slice(0, 3)]);

        // The losers are told there is not enough stock, as a single process tells them; nothing else.
        for (const res of [edit!, ...placements])
          if (res.statusCode !== 201) expectProblem(res, 409, 'insufficient_stock');
        const sold = (edit!.statusCode === 201 ? 2 : 0) + placements.filter((r) => r.statusCode === 201).length;
        // 5 units asked for 3: whatever the order, all 3 go (an edit refused at 1 left leaves it to an order).
        expect(sold, `round ${round}: edit ${edit!.statusCode}, orders ${placements.map((r) => r.statusCode)}`).toBe(3);
        const [variant] = await t.database.db.select().from(productVariants).where(eq(productVariants.id, scarceId));
        expect(variant?.stock).toBe(0);
        const [lines] = await t.database.db
          .select({ units: sum(orderLines.quantity).mapWith(Number) })
          .from(orderLines)
          .where(eq(orderLines.variantId, scarceId));
        expect(lines?.units).toBe(3);
        const scarceLine = (await orderOf(edited)).lines.find((l: { alias: string }) => l.alias === alias);
        expect(scarceLine?.quantity).toBe(edit!.statusCode === 201 ? 2 : undefined);
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

  describe('capture on shipment, two parcels shipped at once from two processes', () => {
    /** The order's 46.00 held by a sandbox authorization: approved, nothing to pay. */
    async function authorized(): Promise<PlacedOrder> {
      const order = await mugsAndTeapot();
      const started = json(
        await t.app.inject({
          method: 'POST',
          url: '/payment/storefront/api/start-payment/sandbox/',
          headers: { 'x-order-token': order.order_token },
          payload: { order_alias: order.order_alias },
        }),
      );
      const reference = new URL(started.url).searchParams.get('reference') ?? '';
      const body = JSON.stringify({
        id: `evt_${reference}`,
        type: 'payment.authorized',
        created: Math.floor(Date.now() / 1000),
        data: { reference, amount: 4600, currency: 'USD' },
      });
      const hook = await t.app.inject({
        method: 'POST',
        url: '/payment/storefront/api/webhook-view/sandbox/',
        headers: {
          'content-type': 'application/json',
          'x-sandbox-signature': signSandboxWebhook(SANDBOX_SECRET, body),
        },
        payload: body,
      });
      expect(hook.statusCode, hook.body).toBe(200);
      expect(await orderOf(order)).toMatchObject({ status: 'approved', payment_status: 'authorized' });
      return order;
    }

    /** An authorized order's two parcels (2 mugs: 16.00; the teapot: 30.00) shipped at once, one on each process. */
    async function shipBothAtOnce(): Promise<{ order: PlacedOrder; shipped: LightMyRequestResponse[] }> {
      const order = await authorized();
      const mugs = { url: fulfillmentsUrl(order), payload: { lines: [{ alias: 'race-mug', quantity: 2 }] } };
      const parcels = [
        json(await asAdmin(both[0], mugs)).id,
        json(await asAdmin(both[0], { url: fulfillmentsUrl(order) })).id,
      ];
      const shipped = await Promise.all(
        parcels.map((id, i) => asAdmin(both[i]!, { url: `${fulfillmentsUrl(order)}${id}/ship/` })),
      );
      for (const res of shipped) expect(res.statusCode, res.body).toBe(200);
      return { order, shipped };
    }
    const capturesOf = (shipped: LightMyRequestResponse[]) =>
      shipped.flatMap((res) => json(res).captures as { amount: string; status: string; detail: string | null }[]);

    it('captures once, what had shipped when it captured; the capture is final, so the rest is due', async () => {
      for (let round = 1; round <= ROUNDS; round++) {
        const { order, shipped } = await shipBothAtOnce();
        // One capture, of the parcels shipped by the time it was taken: the mugs (16.00), the teapot (30.00) or both.
        const succeeded = capturesOf(shipped).filter((c) => c.status === 'succeeded');
        expect(succeeded, `round ${round}`).toEqual([
          {
            payment_id: expect.any(Number),
            amount: expect.stringMatching(/^(16|30|46)\.00$/),
            status: 'succeeded',
            detail: null,
          },
        ]);
        const captured = succeeded[0]!.amount;
        const toPay = (46 - Number(captured)).toFixed(2);
        expect(await orderOf(order)).toMatchObject({
          status: 'shipped',
          fulfillment_status: 'shipped',
          ledger: { captured, capturable: '0.00', to_pay: toPay, balance_due: toPay },
        });
        // The ledger's records agree: one capture record, succeeded; the rest of the hold released.
        const [payment] = await t.database.db.select().from(payments).where(eq(payments.orderId, order.order_id));
        const capturedMinor = Math.round(Number(captured) * 100);
        expect(payment).toMatchObject({
          amountAuthorized: 4600,
          amountCaptured: capturedMinor,
          amountVoided: 4600 - capturedMinor,
        });
        const records = await t.database.db
          .select({ status: paymentOperations.status, amount: paymentOperations.amount })
          .from(paymentOperations)
          .where(and(eq(paymentOperations.orderId, order.order_id), eq(paymentOperations.kind, 'capture')));
        expect(records).toEqual([{ status: 'succeeded', amount: capturedMinor }]);
      }
    });

    // Finding (not fixed here): the parcel whose capture loses the race is answered with a capture `failed` ("at most
    // 30.00 USD can be captured on payment 1", asked 46.00), although nothing failed: the winner's final capture of
    // the first parcel released the rest, as shipping the two one after the other does, and that answers no capture.
    // captureShipped reads the payment's capturable figure and the order's captured amount outside the order's lock,
    // and takes capturePayment's refusal for the gateway's. A "failed" capture tells the admin to capture by hand
    // what can no longer be captured. Make this an `it` to see it.
    it.todo('answers the parcel that finds the money taken with no capture, as shipping in turn does', async () => {
      for (let round = 1; round <= ROUNDS; round++) {
        const { shipped } = await shipBothAtOnce();
        expect(capturesOf(shipped), `round ${round}`).toEqual([expect.objectContaining({ status: 'succeeded' })]);
      }
    });
  });
});

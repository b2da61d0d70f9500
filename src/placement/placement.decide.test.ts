import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PromoCodeRecord, promoCodePromotion } from '../pricing/promo-code.promotion.js';
import type { Promotion } from '../pricing/promotions/promotion.types.js';
import {
  buyerKey,
  type Decision,
  decideBatch,
  keyId,
  type KeyState,
  type LockedState,
  type LockedVariant,
  type PlacementToDecide,
} from './placement.decide.js';

const now = new Date('2026-11-25T12:00:00Z');

function variant(id: number, spec: Partial<LockedVariant> = {}): LockedVariant {
  return {
    id,
    stock: 10,
    trackInventory: true,
    allowBackorder: false,
    archivedAt: null,
    productArchivedAt: null,
    pricingVersion: 0,
    productPricingVersion: 0,
    ...spec,
  };
}

/** The promotion of promo code 7. */
function code(spec: Partial<PromoCodeRecord> = {}): Promotion {
  const record: PromoCodeRecord = {
    code: 'SAVE10',
    codeType: 'percentage',
    value: '10',
    isActive: true,
    startsAt: null,
    expiresAt: null,
    minPurchaseMinor: null,
    redemptionLimit: null,
    usageLimitPerCustomer: null,
    specificCustomerIds: null,
    applicableProductIds: null,
    newCustomersOnly: false,
    ...spec,
  };
  return promoCodePromotion(record, { id: 7, currency: 'USD' });
}

const guest = (email: string) => ({ userId: null, email });
const user = (userId: number, email: string | null = null) => ({ userId, email });

function placement(spec: {
  lines?: [variantId: number, quantity: number][];
  buyer?: PlacementToDecide['buyer'];
  promoId?: number;
  /** The promotion applied without a code. */
  automatic?: boolean;
  key?: [key: string, requestHash: string];
  version?: number;
  market?: PlacementToDecide['market'];
}): PlacementToDecide {
  const lines = spec.lines ?? [[1, 1]];
  return {
    idempotency: spec.key ? { scope: 'guest', key: spec.key[0], requestHash: spec.key[1] } : undefined,
    buyer: spec.buyer ?? guest('ann@example.com'),
    lines: lines.map(([variantId, quantity]) => ({
      variantId,
      quantity,
      pricingVersion: spec.version ?? 0,
      productPricingVersion: 0,
    })),
    promotions: spec.promoId === undefined ? [] : [{ id: spec.promoId, version: 1, byCode: spec.automatic !== true }],
    order: { currency: 'USD', subtotalMinor: 1_000, lines: [{ productId: 1, quantity: 1 }] },
    market: spec.market ?? null,
    storeCurrency: 'USD',
  };
}

function state(spec: Partial<LockedState> = {}): LockedState {
  return {
    now,
    keys: new Map(),
    variants: new Map([[1, variant(1)]]),
    promotions: new Map(),
    markets: new Map(),
    buyers: new Map(),
    ...spec,
  };
}

const outcomes = (decisions: Decision[]) =>
  decisions.map((d) => (d.outcome === 'refused' ? d.refusal.reason : d.outcome));

describe('deciding a batch of placements', () => {
  it("shares a variant's stock among the orders of a batch in arrival order, naming what is left", () => {
    const decisions = decideBatch(
      [
        placement({ lines: [[1, 4]] }),
        placement({ lines: [[1, 4]] }),
        placement({ lines: [[1, 4]] }),
        placement({ lines: [[1, 2]] }),
      ],
      state({ variants: new Map([[1, variant(1, { stock: 10 })]]) }),
    );
    expect(outcomes(decisions)).toEqual(['placed', 'placed', 'insufficient_stock', 'placed']);
    expect(decisions[2]).toEqual({
      outcome: 'refused',
      refusal: { reason: 'insufficient_stock', shortages: [{ variantId: 1, available: 2 }] },
    });
    expect(decisions[0]).toEqual({ outcome: 'placed', stock: [{ variantId: 1, quantity: 4 }], promotionIds: [] });
  });

  it('takes no stock of untracked or backorderable variants, however little they hold', () => {
    const variants = new Map([
      [1, variant(1, { stock: 0, trackInventory: false })],
      [2, variant(2, { stock: 0, allowBackorder: true })],
    ]);
    const decisions = decideBatch(
      [
        placement({
          lines: [
            [1, 5],
            [2, 5],
          ],
        }),
      ],
      state({ variants }),
    );
    expect(decisions).toEqual([{ outcome: 'placed', stock: [], promotionIds: [] }]);
  });

  it("refuses a code whose global limit the earlier orders of the batch reached, with the estimate's message", () => {
    const promotions = new Map([[7, { promotion: code({ redemptionLimit: 3 }), version: 1, timesUsed: 1 }]]);
    const batch = ['a', 'b', 'c', 'd'].map((n) => placement({ promoId: 7, buyer: guest(`${n}@example.com`) }));
    const decisions = decideBatch(batch, state({ promotions }));
    expect(outcomes(decisions)).toEqual(['placed', 'placed', 'promo_code_refused', 'promo_code_refused']);
    expect(decisions[2]).toEqual({
      outcome: 'refused',
      refusal: {
        reason: 'promo_code_refused',
        rule: 'redemption_limit',
        detail: 'promo code SAVE10 has been redeemed the maximum number of times',
      },
    });
  });

  it('lets a first-order-only code through once when a guest and a signed-in customer with the same email race', () => {
    const promotions = new Map([[7, { promotion: code({ newCustomersOnly: true }), version: 1, timesUsed: 0 }]]);
    const batch = [
      placement({ promoId: 7, buyer: guest('sam@example.com') }),
      placement({ promoId: 7, buyer: user(5, 'sam@example.com') }),
      placement({ promoId: 7, buyer: guest('other@example.com') }),
    ];
    const buyers = new Map([0, 1, 2].map((n) => [buyerKey(n, 7), { redemptions: 0, hasPreviousOrders: false }]));
    const decisions = decideBatch(batch, state({ promotions, buyers }));
    expect(outcomes(decisions)).toEqual(['placed', 'promo_code_refused', 'placed']);
    expect(decisions[1]).toMatchObject({ refusal: { rule: 'new_customers_only' } });
  });

  it('refuses a first-order-only code to a customer the database knows ordered before', () => {
    const promotions = new Map([[7, { promotion: code({ newCustomersOnly: true }), version: 1, timesUsed: 0 }]]);
    const decisions = decideBatch(
      [placement({ promoId: 7, buyer: user(5) })],
      state({ promotions, buyers: new Map([[buyerKey(0, 7), { redemptions: 0, hasPreviousOrders: true }]]) }),
    );
    expect(outcomes(decisions)).toEqual(['promo_code_refused']);
  });

  it('counts a once-per-customer code per user, and per email for guests, across the batch', () => {
    const promotions = new Map([[7, { promotion: code({ usageLimitPerCustomer: 1 }), version: 1, timesUsed: 0 }]]);
    const batch = [
      placement({ promoId: 7, buyer: user(5, 'u@example.com') }),
      placement({ promoId: 7, buyer: user(5, 'u@example.com') }),
      placement({ promoId: 7, buyer: user(6, 'u@example.com') }),
      placement({ promoId: 7, buyer: guest('g@example.com') }),
      placement({ promoId: 7, buyer: guest('g@example.com') }),
    ];
    const buyers = new Map(batch.map((_, n) => [buyerKey(n, 7), { redemptions: 0, hasPreviousOrders: false }]));
    expect(outcomes(decideBatch(batch, state({ promotions, buyers })))).toEqual([
      'placed',
      'promo_code_refused',
      'placed',
      'placed',
      'promo_code_refused',
    ]);
  });

  it('answers one key twice in a batch with one order, and refuses it with another request', () => {
    const claimed = new Map<string, KeyState>([[keyId({ scope: 'guest', key: 'k1' }), { claimed: true }]]);
    const decisions = decideBatch(
      [placement({ key: ['k1', 'h1'] }), placement({ key: ['k1', 'h1'] }), placement({ key: ['k1', 'h2'] })],
      state({ keys: claimed }),
    );
    expect(decisions).toEqual([
      { outcome: 'placed', stock: [{ variantId: 1, quantity: 1 }], promotionIds: [] },
      { outcome: 'same_as', index: 0 },
      { outcome: 'refused', refusal: { reason: 'key_reused' } },
    ]);
  });

  it('lets the second use of a key place the order when the first was refused', () => {
    const keys = new Map<string, KeyState>([[keyId({ scope: 'guest', key: 'k1' }), { claimed: true }]]);
    const variants = new Map([[1, variant(1, { stock: 1 })]]);
    const decisions = decideBatch(
      [placement({ key: ['k1', 'h1'], lines: [[1, 2]] }), placement({ key: ['k1', 'h2'], lines: [[1, 1]] })],
      state({ keys, variants }),
    );
    expect(outcomes(decisions)).toEqual(['insufficient_stock', 'placed']);
  });

  it('replays a key answered before the batch, and refuses it for another request', () => {
    const stored = { requestHash: 'h1', status: 201, body: { order_id: 3 } };
    const keys = new Map<string, KeyState>([[keyId({ scope: 'guest', key: 'k1' }), { claimed: false, stored }]]);
    expect(decideBatch([placement({ key: ['k1', 'h1'] }), placement({ key: ['k1', 'h2'] })], state({ keys }))).toEqual([
      { outcome: 'replayed', stored: { status: 201, body: { order_id: 3 } } },
      { outcome: 'refused', refusal: { reason: 'key_reused' } },
    ]);
  });

  it('asks for a retry when a key it could not claim has no answer', () => {
    const keys = new Map<string, KeyState>([
      [keyId({ scope: 'guest', key: 'k1' }), { claimed: false, stored: undefined }],
    ]);
    expect(outcomes(decideBatch([placement({ key: ['k1', 'h1'] })], state({ keys })))).toEqual(['key_in_flux']);
  });

  it('refuses an order priced at an older version of a variant or product, or of an archived one', () => {
    const variants = new Map([
      [1, variant(1, { pricingVersion: 2 })],
      [2, variant(2, { productPricingVersion: 1 })],
      [3, variant(3, { archivedAt: '2026-11-25T00:00:00Z' })],
    ]);
    const decisions = decideBatch(
      [
        placement({ lines: [[1, 1]], version: 1 }),
        placement({ lines: [[1, 1]], version: 2 }),
        placement({ lines: [[2, 1]] }),
        placement({ lines: [[3, 1]] }),
        placement({ lines: [[4, 1]] }),
      ],
      state({ variants }),
    );
    expect(outcomes(decisions)).toEqual(['price_changed', 'placed', 'price_changed', 'price_changed', 'price_changed']);
  });

  it('prices again an order whose market changed its rate or rounding since it was priced, or is gone', () => {
    const markets = new Map([[2, 'JPY|false|151.37|100|0|nearest']]);
    const decisions = decideBatch(
      [
        placement({ market: { id: 2, pricingVersion: 'JPY|false|151.37|100|0|nearest' } }),
        placement({ market: { id: 2, pricingVersion: 'JPY|false|150|100|0|nearest' } }),
        placement({ market: { id: 3, pricingVersion: 'EUR|true|0.92||0|nearest' } }),
        placement({ market: null }),
      ],
      state({ markets }),
    );
    expect(outcomes(decisions)).toEqual(['placed', 'price_changed', 'price_changed', 'placed']);
  });

  it('prices again, instead of refusing, an order whose automatic promotion ran out under lock', () => {
    const promotions = new Map([[7, { promotion: code({ redemptionLimit: 1 }), version: 1, timesUsed: 0 }]]);
    const batch = ['a', 'b'].map((n) => placement({ promoId: 7, automatic: true, buyer: guest(`${n}@example.com`) }));
    expect(outcomes(decideBatch(batch, state({ promotions })))).toEqual(['placed', 'price_changed']);
  });

  it('prices again an order whose promotion an admin changed or removed since it was priced', () => {
    const promotions = new Map([[7, { promotion: code(), version: 2, timesUsed: 0 }]]);
    expect(
      outcomes(decideBatch([placement({ promoId: 7 }), placement({ promoId: 8 })], state({ promotions }))),
    ).toEqual(['price_changed', 'price_changed']);
  });

  it('records a use of every promotion an order got', () => {
    const promotions = new Map([
      [7, { promotion: code(), version: 1, timesUsed: 0 }],
      [8, { promotion: { ...code(), id: 8, code: null }, version: 1, timesUsed: 0 }],
    ]);
    const order: PlacementToDecide = {
      ...placement({}),
      promotions: [
        { id: 8, version: 1, byCode: false },
        { id: 7, version: 1, byCode: true },
      ],
    };
    expect(decideBatch([order], state({ promotions }))).toEqual([
      { outcome: 'placed', stock: [{ variantId: 1, quantity: 1 }], promotionIds: [8, 7] },
    ]);
  });

  it('takes nothing for a refused order: the orders after it see the stock and uses it did not take', () => {
    const promotions = new Map([[7, { promotion: code({ redemptionLimit: 1 }), version: 1, timesUsed: 0 }]]);
    const variants = new Map([[1, variant(1, { stock: 3 })]]);
    const decisions = decideBatch(
      [placement({ promoId: 7, lines: [[1, 5]] }), placement({ promoId: 7, lines: [[1, 3]] })],
      state({ promotions, variants }),
    );
    expect(outcomes(decisions)).toEqual(['insufficient_stock', 'placed']);
  });
});

describe('invariants of a decided batch', () => {
  const batchArb = fc.record({
    stock: fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 4 }),
    limit: fc.option(fc.integer({ min: 0, max: 6 }), { nil: null }),
    usedBefore: fc.integer({ min: 0, max: 3 }),
    orders: fc.array(
      fc.record({
        lines: fc.array(fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 8 })), {
          minLength: 1,
          maxLength: 3,
        }),
        withCode: fc.boolean(),
        buyer: fc.integer({ min: 1, max: 5 }),
        key: fc.option(fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 2 })), { nil: undefined }),
      }),
      { maxLength: 30 },
    ),
  });

  it('never takes stock below zero, never uses a code beyond its limit, and answers every placement once', () => {
    fc.assert(
      fc.property(batchArb, ({ stock, limit, usedBefore, orders }) => {
        const variants = new Map(stock.map((s, i) => [i + 1, variant(i + 1, { stock: s })]));
        const promotions = new Map([
          [7, { promotion: code({ redemptionLimit: limit }), version: 1, timesUsed: usedBefore }],
        ]);
        const keys = new Map<string, KeyState>(
          orders.flatMap((o) =>
            o.key ? [[keyId({ scope: 'guest', key: `k${o.key[0]}` }), { claimed: true } as const]] : [],
          ),
        );
        const batch = orders.map((o) =>
          placement({
            lines: o.lines.map(([v, q]) => [Math.min(v, stock.length), q]),
            promoId: o.withCode ? 7 : undefined,
            buyer: guest(`b${o.buyer}@example.com`),
            key: o.key ? [`k${o.key[0]}`, `h${o.key[1]}`] : undefined,
          }),
        );
        const decisions = decideBatch(batch, state({ variants, promotions, keys }));

        expect(decisions).toHaveLength(batch.length);
        const taken = new Map<number, number>();
        let uses = 0;
        for (const d of decisions) {
          if (d.outcome !== 'placed') continue;
          for (const s of d.stock) taken.set(s.variantId, (taken.get(s.variantId) ?? 0) + s.quantity);
          if (d.promotionIds.includes(7)) uses += 1;
        }
        for (const [id, units] of taken) expect(units).toBeLessThanOrEqual(variants.get(id)?.stock ?? 0);
        if (limit !== null) expect(usedBefore + uses).toBeLessThanOrEqual(Math.max(limit, usedBefore));
        // A key places at most one order; its other uses answer with it or are refused.
        const placedKeys = batch
          .filter((p, n) => p.idempotency && decisions[n]?.outcome === 'placed')
          .map((p) => p.idempotency?.key);
        expect(new Set(placedKeys).size).toBe(placedKeys.length);
      }),
    );
  });
});

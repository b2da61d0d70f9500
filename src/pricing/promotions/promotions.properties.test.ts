import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDecimal, ROUNDING_MODES, sumMinor } from '../../shared/money.js';
import { priceOrder } from '../pricing.calculator.js';
import type { PricingInput, PricingLine } from '../pricing.types.js';
import { inScope } from './product-scope.js';
import { testPromotion } from './promotion.testing.js';
import type { Promotion, PromotionAction, PromotionCondition } from './promotion.types.js';
import { applyPromotions } from './promotions.apply.js';

const percent = fc.oneof(
  fc.constantFrom('10', '50', '100', '33.3333'),
  fc.integer({ min: 0, max: 1_500_000 }).map((units) => formatDecimal({ units: BigInt(units), scale: 4 })),
);
const amount = fc.oneof(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 0, max: 5_000_000 }));
const scope = fc.option(fc.uniqueArray(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 3 }), { nil: null });
const units = fc.option(fc.integer({ min: 0, max: 6 }), { nil: null });

const action: fc.Arbitrary<PromotionAction> = fc.oneof(
  fc.record({ type: fc.constant('order_percentage' as const), percent, products: scope }),
  fc.record({ type: fc.constant('order_fixed' as const), amountMinor: amount, products: scope }),
  fc.record({ type: fc.constant('item_percentage' as const), percent, products: scope, maxUnits: units }),
  fc.record({ type: fc.constant('item_fixed' as const), amountMinor: amount, products: scope, maxUnits: units }),
  fc.record({
    type: fc.constant('buy_x_get_y' as const),
    buyQuantity: fc.integer({ min: 1, max: 4 }),
    buyProducts: scope,
    getQuantity: fc.integer({ min: 1, max: 3 }),
    getProducts: scope,
    percent,
    repeat: fc.boolean(),
  }),
  fc.record({ type: fc.constant('shipping_percentage' as const), percent }),
  fc.record({ type: fc.constant('shipping_fixed' as const), amountMinor: amount }),
  fc.constant({ type: 'free_shipping' as const }),
);

const condition: fc.Arbitrary<PromotionCondition> = fc.oneof(
  fc.record({ type: fc.constant('min_subtotal' as const), amountMinor: amount }),
  fc.record({ type: fc.constant('min_quantity' as const), quantity: fc.integer({ min: 1, max: 10 }), products: scope }),
  fc.record({
    type: fc.constant('contains_products' as const),
    products: fc.uniqueArray(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 3 }),
  }),
);

const promotions: fc.Arbitrary<Promotion[]> = fc
  .uniqueArray(
    fc.record({
      id: fc.integer({ min: 1, max: 50 }),
      priority: fc.integer({ min: -2, max: 2 }),
      combinable: fc.boolean(),
      conditions: fc.array(condition, { maxLength: 2 }),
      action,
    }),
    { selector: (p) => p.id, maxLength: 5 },
  )
  .map((list) =>
    list.map((p) => ({
      ...p,
      name: `Promotion ${p.id}`,
      code: null,
      isActive: true,
      startsAt: null,
      expiresAt: null,
      redemptionLimit: null,
      usageLimitPerCustomer: null,
      newCustomersOnly: false,
      specificCustomerIds: null,
    })),
  );

const lines: fc.Arbitrary<PricingLine[]> = fc
  .array(
    fc.record({
      productId: fc.integer({ min: 1, max: 6 }),
      unitPriceMinor: fc.oneof(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 500_000 })),
      quantity: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 999 })),
      taxClass: fc.constantFrom(null, { id: 1, name: 'Standard' }, { id: 2, name: 'Reduced' }),
    }),
    { minLength: 1, maxLength: 6 },
  )
  .map((picked) =>
    picked.map((l, i) => ({ ...l, alias: `v${i}`, variantId: i + 1, name: `Variant ${i}`, weightGrams: null })),
  );

const orders: fc.Arbitrary<PricingInput> = fc.record({
  config: fc.record({
    currency: fc.constantFrom('USD', 'JPY', 'KWD'),
    roundingMode: fc.constantFrom(...ROUNDING_MODES),
    pricesIncludeTax: fc.boolean(),
    shippingTaxable: fc.boolean(),
  }),
  lines,
  taxRates: fc.constantFrom(
    new Map<number, string>(),
    new Map([
      [1, '20'],
      [2, '5.5'],
    ]),
    new Map([[1, '8.875']]),
  ),
  shipping: fc.option(
    fc.record({ type: fc.constant('custom' as const), name: fc.constant('Courier'), amountMinor: amount }),
    { nil: null },
  ),
  promotions,
  customDiscount: fc.constant(null),
});

const runs = { numRuns: 500 };

/** The lines an action may take from; none for shipping actions. */
function actsOn(a: PromotionAction, productId: number): boolean {
  if (a.type === 'buy_x_get_y') return inScope(a.getProducts, productId);
  return 'products' in a && inScope(a.products, productId);
}

describe('promotions on random orders in USD, JPY and KWD, net and gross', () => {
  it('never takes a line below 0, nor more off shipping than its fee', () => {
    fc.assert(
      fc.property(orders, (input) => {
        const o = priceOrder(input);
        for (const line of o.lines) {
          expect(line.discountMinor).toBeGreaterThanOrEqual(0);
          expect(line.discountMinor).toBeLessThanOrEqual(line.subtotalMinor);
          expect(line.totalMinor).toBeGreaterThanOrEqual(0);
        }
        expect(o.shippingDiscountMinor).toBeGreaterThanOrEqual(0);
        expect(o.shippingDiscountMinor).toBeLessThanOrEqual(o.shippingFeeMinor);
      }),
      runs,
    );
  });

  it('takes each promotion only off what it acts on, and adds its adjustments up to the discount', () => {
    fc.assert(
      fc.property(orders, (input) => {
        const o = priceOrder(input);
        const byId = new Map(input.promotions.map((p) => [p.id, p]));
        for (const line of o.lines) {
          expect(sumMinor(line.adjustments.map((a) => a.amountMinor))).toBe(line.discountMinor);
          for (const adjustment of line.adjustments) {
            const promotion = byId.get(adjustment.promotionId);
            expect(promotion && actsOn(promotion.action, line.productId)).toBe(true);
            expect(adjustment.amountMinor).toBeGreaterThan(0);
          }
        }
        const lineDiscounts = sumMinor(o.lines.map((l) => l.discountMinor));
        expect(lineDiscounts + o.shippingDiscountMinor).toBe(o.discountMinor);
        expect(sumMinor(o.promotions.map((p) => p.amountMinor))).toBe(o.discountMinor);
        for (const applied of o.promotions) {
          const onLines = sumMinor(
            o.lines.flatMap((l) => l.adjustments.filter((a) => a.promotionId === applied.id).map((a) => a.amountMinor)),
          );
          expect(onLines).toBeLessThanOrEqual(applied.amountMinor);
          if (applied.kind.startsWith('shipping') || applied.kind === 'free_shipping') expect(onLines).toBe(0);
        }
      }),
      runs,
    );
  });

  it("keeps section 6's totals: subtotal − discount + shipping (+ tax on net prices) = Σ lines + shipping left", () => {
    fc.assert(
      fc.property(orders, (input) => {
        const o = priceOrder(input);
        const base = o.subtotalMinor - o.discountMinor + o.shippingFeeMinor;
        const taxOnTop = input.config.pricesIncludeTax ? 0 : o.estimatedTaxMinor;
        expect(o.totalMinor).toBe(base + taxOnTop);
        const shippingTaxOnTop = input.config.pricesIncludeTax ? 0 : o.shippingTaxMinor;
        const shippingLeft = o.shippingFeeMinor - o.shippingDiscountMinor;
        expect(sumMinor(o.lines.map((l) => l.totalMinor)) + shippingLeft + shippingTaxOnTop).toBe(o.totalMinor);
        expect(o.totalWithoutTaxMinor + o.estimatedTaxMinor).toBe(o.totalMinor);
      }),
      runs,
    );
  });

  it('gives the same result whatever order the promotions come in', () => {
    fc.assert(
      fc.property(
        orders.chain((input) =>
          fc
            .shuffledSubarray([...input.promotions], { minLength: input.promotions.length })
            .map((shuffled) => ({ input, shuffled })),
        ),
        ({ input, shuffled }) => {
          expect(priceOrder({ ...input, promotions: shuffled })).toEqual(priceOrder(input));
        },
      ),
      runs,
    );
  });

  it('gives the better of the combinable promotions together and each exclusive one alone', () => {
    fc.assert(
      fc.property(orders, (input) => {
        const o = priceOrder(input);
        const combinable = priceOrder({ ...input, promotions: input.promotions.filter((p) => p.combinable) });
        expect(o.discountMinor).toBeGreaterThanOrEqual(combinable.discountMinor);
        for (const exclusive of input.promotions.filter((p) => !p.combinable)) {
          expect(o.discountMinor).toBeGreaterThanOrEqual(
            priceOrder({ ...input, promotions: [exclusive] }).discountMinor,
          );
        }
        const applied = o.promotions.map((p) => input.promotions.find((q) => q.id === p.id));
        if (applied.some((p) => p && !p.combinable)) expect(applied).toHaveLength(1);
      }),
      runs,
    );
  });
});

describe('stacked buy-get promotions on random orders', () => {
  /** Percentages that take an exact amount off a unit whose price is a multiple of 4 minor units. */
  const exactPercent = fc.constantFrom('25', '50', '75', '100');
  const buyGets = fc.uniqueArray(
    fc.record({
      id: fc.integer({ min: 1, max: 50 }),
      priority: fc.integer({ min: -2, max: 2 }),
      combinable: fc.boolean(),
      action: fc.record({
        type: fc.constant('buy_x_get_y' as const),
        buyQuantity: fc.integer({ min: 1, max: 4 }),
        buyProducts: scope,
        getQuantity: fc.integer({ min: 1, max: 3 }),
        getProducts: scope,
        percent: exactPercent,
        repeat: fc.boolean(),
      }),
    }),
    { selector: (p) => p.id, minLength: 1, maxLength: 4 },
  );
  const cart = fc.array(
    fc.record({
      productId: fc.integer({ min: 1, max: 4 }),
      unitPriceMinor: fc.integer({ min: 1, max: 50_000 }).map((n) => n * 4),
      quantity: fc.integer({ min: 1, max: 12 }),
    }),
    { minLength: 1, maxLength: 4 },
  );

  it('never uses more units than the cart holds: units discounted + bought to qualify, over every promotion', () => {
    fc.assert(
      fc.property(buyGets, cart, (picked, lines) => {
        const stack = picked.map((p) => testPromotion(p));
        const result = applyPromotions({
          promotions: stack,
          lines,
          shippingFeeMinor: 0,
          currency: 'USD',
          roundingMode: 'half_up',
        });
        const subtotal = sumMinor(lines.map((l) => l.unitPriceMinor * l.quantity));
        expect(result.discountMinor).toBeLessThanOrEqual(subtotal);
        let used = 0;
        for (const applied of result.promotions) {
          const promotion = stack.find((p) => p.id === applied.id);
          if (promotion?.action.type !== 'buy_x_get_y') throw new Error(`promotion ${applied.id} is not a buy-get`);
          const { buyQuantity, getQuantity, percent, repeat } = promotion.action;
          // A unit is given at most once and at its full price, so each one given takes exactly price × percent.
          let given = 0;
          result.lines.forEach((line, i) => {
            const off = line.adjustments.find((a) => a.promotionId === applied.id)?.amountMinor ?? 0;
            // Whole numbers: a price is a multiple of 4 minor units, a percentage a multiple of 25.
            const each = ((lines[i]?.unitPriceMinor ?? 0) / 4) * (Number(percent) / 25);
            expect(off % each).toBe(0);
            given += off / each;
          });
          expect(given % getQuantity).toBe(0);
          const deals = given / getQuantity;
          if (!repeat) expect(deals).toBeLessThanOrEqual(1);
          used += given + deals * buyQuantity;
        }
        expect(used).toBeLessThanOrEqual(sumMinor(lines.map((l) => l.quantity)));
      }),
      runs,
    );
  });
});

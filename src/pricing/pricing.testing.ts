// Random orders for property tests of pricing (fast-check): lines from a small catalog (aliases repeat), tax rates,
// shipping by rate or custom, and the discounts of SPEC section 6 (none, a promo code, an admin's amount), in USD, JPY
// and KWD with every rounding mode.
import fc from 'fast-check';
import { ROUNDING_MODES, formatDecimal } from '../shared/money.js';
import type { PricingInput, PricingLine, PricingShipping, TaxClassRef } from './pricing.types.js';
import { testPromotion } from './promotions/promotion.testing.js';
import type { Promotion, PromotionAction } from './promotions/promotion.types.js';

const classes: TaxClassRef[] = [
  { id: 1, name: 'Standard' },
  { id: 2, name: 'Reduced' },
  { id: 3, name: 'Zero' },
];

/** A decimal string with up to `scale` decimals, from an integer of units. */
const decimal = (maxUnits: number, scale: number) =>
  fc.integer({ min: 0, max: maxUnits }).map((units) => formatDecimal({ units: BigInt(units), scale }));

const variant = fc.record({
  productId: fc.integer({ min: 1, max: 4 }),
  unitPriceMinor: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 5_000_000 })),
  weightGrams: fc.option(decimal(5_000_000, 1), { nil: null }),
  taxClass: fc.option(fc.constantFrom(...classes), { nil: null }),
});

/** Picks from a small catalog so that aliases repeat (and must be summed) now and then. */
const lines = fc.array(variant, { minLength: 1, maxLength: 6 }).chain((catalog) =>
  fc
    .array(fc.record({ index: fc.nat({ max: catalog.length - 1 }), quantity: fc.integer({ min: 1, max: 999 }) }), {
      minLength: 1,
      maxLength: 8,
    })
    .map((picks) =>
      picks.map(({ index, quantity }): PricingLine => {
        const v = catalog[index];
        if (!v) throw new Error('unreachable');
        return { alias: `v${index}`, variantId: index + 1, name: `Variant ${index}`, quantity, ...v };
      }),
    ),
);

const taxRates = fc
  .record({
    1: fc.option(decimal(300_000, 4), { nil: undefined }),
    2: fc.option(decimal(100_000, 4), { nil: undefined }),
    3: fc.option(fc.constant('0'), { nil: undefined }),
  })
  .map(
    (rates) =>
      new Map(Object.entries(rates).flatMap(([id, rate]) => (rate === undefined ? [] : [[Number(id), rate] as const]))),
  );

const productScope = fc.option(fc.uniqueArray(fc.integer({ min: 1, max: 5 }), { maxLength: 3 }), { nil: undefined });

/** A promo code as pricing gets it: a combinable promotion of priority 0 (see promo-code.promotion.ts). */
const code = (action: PromotionAction): Promotion => testPromotion({ id: 1, name: 'Promo code', code: 'CODE', action });

/** The discounts of section 6: none, one promo code (percentage, fixed, free shipping), or an admin's amount. */
const discount: fc.Arbitrary<Pick<PricingInput, 'promotions' | 'customDiscount'>> = fc.oneof(
  fc.constant({ promotions: [], customDiscount: null }),
  fc.record({ percent: decimal(1_500_000, 4), products: productScope }).map(({ percent, products }) => ({
    promotions: [code({ type: 'order_percentage', percent, products: products ?? null })],
    customDiscount: null,
  })),
  fc
    .record({ amountMinor: fc.integer({ min: 0, max: 50_000_000 }), products: productScope })
    .map(({ amountMinor, products }) => ({
      promotions: [code({ type: 'order_fixed', amountMinor, products: products ?? null })],
      customDiscount: null,
    })),
  fc.constant({ promotions: [code({ type: 'free_shipping' })], customDiscount: null }),
  fc
    .integer({ min: 0, max: 50_000_000 })
    .map((amountMinor) => ({ promotions: [], customDiscount: { name: 'Goodwill', amountMinor } })),
);

const shipping: fc.Arbitrary<PricingShipping | null> = fc.oneof(
  fc.constant(null),
  fc.record({
    type: fc.constant('rate' as const),
    methodName: fc.constant('Standard'),
    rate: fc.record({
      weightMinKg: decimal(5000, 3),
      baseRateMinor: fc.integer({ min: 0, max: 100_000 }),
      perKgRateMinor: fc.integer({ min: 0, max: 10_000 }),
    }),
    // Class 4 never has a rate: shipping then falls back to the line rates.
    taxClassId: fc.constantFrom(null, 1, 2, 3, 4),
  }),
  fc.record({
    type: fc.constant('custom' as const),
    name: fc.constant('Courier'),
    amountMinor: fc.integer({ min: 0, max: 100_000 }),
  }),
);

export const randomOrders: fc.Arbitrary<PricingInput> = fc
  .record({
    config: fc.record({
      currency: fc.constantFrom('USD', 'JPY', 'KWD'),
      roundingMode: fc.constantFrom(...ROUNDING_MODES),
      pricesIncludeTax: fc.boolean(),
      shippingTaxable: fc.boolean(),
    }),
    lines,
    taxRates,
    shipping,
    discount,
    shippingTaxRate: fc.option(decimal(250_000, 4), { nil: undefined }),
  })
  .map(({ discount: chosen, ...input }) => ({ ...input, ...chosen }));

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROUNDING_MODES, currencyFormat, formatDecimal, sumMinor } from '../shared/money.js';
import { priceOrder } from './pricing.calculator.js';
import { presentPricedOrder } from './pricing.presenter.js';
import type { PricingInput, PricingLine, PricingShipping, TaxClassRef } from './pricing.types.js';
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
const code = (action: PromotionAction): Promotion => ({
  id: 1,
  name: 'Promo code',
  code: 'CODE',
  isActive: true,
  startsAt: null,
  expiresAt: null,
  priority: 0,
  combinable: true,
  redemptionLimit: null,
  usageLimitPerCustomer: null,
  newCustomersOnly: false,
  specificCustomerIds: null,
  conditions: [],
  action,
});

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

const orders: fc.Arbitrary<PricingInput> = fc
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

const runs = { numRuns: 1000 };

describe('priceOrder on random orders in USD, JPY and KWD', () => {
  it('keeps subtotal − discount + shipping (+ tax on net prices) = total, on net and gross prices', () => {
    fc.assert(
      fc.property(orders, (input) => {
        const o = priceOrder(input);
        const base = o.subtotalMinor - o.discountMinor + o.shippingFeeMinor;
        expect(o.totalMinor).toBe(input.config.pricesIncludeTax ? base : base + o.estimatedTaxMinor);
        expect(o.totalWithoutTaxMinor + o.estimatedTaxMinor).toBe(o.totalMinor);
      }),
      runs,
    );
  });

  it('keeps Σ line totals + shipping after its discount (+ shipping tax on net prices) = total', () => {
    fc.assert(
      fc.property(orders, (input) => {
        const o = priceOrder(input);
        const shippingTaxOnTop = input.config.pricesIncludeTax ? 0 : o.shippingTaxMinor;
        const shipping = o.shippingFeeMinor - o.shippingDiscountMinor;
        expect(sumMinor(o.lines.map((l) => l.totalMinor)) + shipping + shippingTaxOnTop).toBe(o.totalMinor);
      }),
      runs,
    );
  });

  it('adds line figures up to the order figures', () => {
    fc.assert(
      fc.property(orders, (input) => {
        const o = priceOrder(input);
        expect(sumMinor(o.lines.map((l) => l.subtotalMinor))).toBe(o.subtotalMinor);
        expect(sumMinor([...o.lines.map((l) => l.discountMinor), o.shippingDiscountMinor])).toBe(o.discountMinor);
        expect(sumMinor([...o.lines.map((l) => l.taxMinor), o.shippingTaxMinor])).toBe(o.estimatedTaxMinor);
        expect(sumMinor(o.taxDetails.map((d) => d.taxMinor))).toBe(o.estimatedTaxMinor);
        expect(o.totalItems).toBe(sumMinor(input.lines.map((l) => l.quantity)));
        expect(new Set(o.lines.map((l) => l.alias)).size).toBe(o.lines.length);
      }),
      runs,
    );
  });

  it('never discounts a line below zero or outside the products a code is scoped to', () => {
    fc.assert(
      fc.property(orders, (input) => {
        const o = priceOrder(input);
        const action = input.promotions[0]?.action;
        const scope = action && 'products' in action ? action.products : undefined;
        for (const line of o.lines) {
          expect(line.discountMinor).toBeGreaterThanOrEqual(0);
          expect(line.discountMinor).toBeLessThanOrEqual(line.subtotalMinor);
          if (scope && scope.length > 0 && !scope.includes(line.productId)) expect(line.discountMinor).toBe(0);
          expect(line.taxMinor).toBeGreaterThanOrEqual(0);
          expect(line.totalMinor).toBeGreaterThanOrEqual(0);
        }
        expect(o.discountMinor - o.shippingDiscountMinor).toBeLessThanOrEqual(o.subtotalMinor);
        expect(o.shippingDiscountMinor).toBeLessThanOrEqual(o.shippingFeeMinor);
        if (action?.type === 'free_shipping') expect(o.shippingDiscountMinor).toBe(o.shippingFeeMinor);
      }),
      runs,
    );
  });

  it('taxes each line within half a minor unit of its exact tax', () => {
    fc.assert(
      fc.property(orders, (input) => {
        const o = priceOrder(input);
        for (const line of o.lines) {
          // rate r = u / 10^s percent; exact tax t* = a·u / (100·10^s) net, a·u / (100·10^s + u) gross.
          const [whole = '0', fraction = ''] = line.taxRate.split('.');
          const u = BigInt(whole + fraction);
          const hundred = 100n * 10n ** BigInt(fraction.length);
          const denominator = input.config.pricesIncludeTax ? hundred + u : hundred;
          const a = BigInt(line.subtotalMinor - line.discountMinor);
          const error = BigInt(line.taxMinor) * denominator - a * u; // (t − t*) × denominator
          expect(2n * (error < 0n ? -error : error) <= denominator).toBe(true);
        }
      }),
      runs,
    );
  });

  it("shows every figure on the wire with the currency's exact precision, and the same numbers", () => {
    fc.assert(
      fc.property(orders, (input) => {
        const o = priceOrder(input);
        const wire = presentPricedOrder(o);
        const money = currencyFormat(o.currency);
        const pattern = money.exponent === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+\\.\\d{${money.exponent}}$`);
        const amounts = [
          wire.subtotal,
          wire.discount,
          wire.shipping_fee,
          wire.estimated_tax,
          wire.total_without_tax,
          wire.total,
          ...wire.lines.flatMap((l) => [l.unit_price, l.subtotal, l.discount, l.tax, l.total]),
          ...wire.tax_details.map((d) => d.tax_amount),
        ];
        for (const amount of amounts) expect(amount).toMatch(pattern);
        const parse = money.parse;
        const base = parse(wire.subtotal) - parse(wire.discount) + parse(wire.shipping_fee);
        expect(parse(wire.total)).toBe(input.config.pricesIncludeTax ? base : base + parse(wire.estimated_tax));
        expect(parse(wire.total)).toBe(o.totalMinor);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same figures for the same input, and for lines sent in pieces', () => {
    fc.assert(
      fc.property(orders, (input) => {
        const first = priceOrder(input);
        expect(priceOrder(input)).toEqual(first);
        const split = input.lines.flatMap((l) =>
          l.quantity > 1
            ? [
                { ...l, quantity: 1 },
                { ...l, quantity: l.quantity - 1 },
              ]
            : [l],
        );
        expect(priceOrder({ ...input, lines: split })).toEqual(first);
      }),
      { numRuns: 300 },
    );
  });
});

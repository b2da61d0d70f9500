import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocate, ROUNDING_MODES, sumMinor } from '../shared/money.js';
import { priceOrder } from './pricing.calculator.js';
import type { PricedOrder, PricingInput, PricingLine } from './pricing.types.js';
import { testPromotion } from './promotions/promotion.testing.js';
import type { PromotionAction } from './promotions/promotion.types.js';
import {
  type LineRefund,
  type LineReturn,
  refundForReturnedUnits,
  type ReturnRefund,
  type ReturnRefundInput,
  type StoredLineFigures,
} from './return-refund.js';

/** A line as placement could store it: any price, discount up to the subtotal, tax up to what is left of it. */
const storedLine = fc
  .record({
    quantity: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 10_000 })),
    unitPrice: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 5_000_000 })),
    discountPart: fc.double({ min: 0, max: 1, noNaN: true }),
    taxPart: fc.double({ min: 0, max: 0.3, noNaN: true }),
    pricesIncludeTax: fc.boolean(),
  })
  .map(({ quantity, unitPrice, discountPart, taxPart, pricesIncludeTax }) => {
    // Floats only pick the test's figures; the figures themselves are integers.
    const subtotal = unitPrice * quantity;
    const discount = Math.floor(subtotal * discountPart);
    const tax = Math.floor((subtotal - discount) * taxPart);
    const paid = subtotal - discount;
    const line: StoredLineFigures = {
      quantity,
      unitPrice,
      subtotal,
      discount,
      tax,
      total: pricesIncludeTax ? paid : paid + tax,
    };
    return { line, pricesIncludeTax };
  });

/** Sizes of successive returns: each takes at most what is left; the line may or may not be returned in full. */
const returnSizes = fc.array(fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 5000 })), {
  minLength: 1,
  maxLength: 12,
});

/** Returns of one line in steps of the given sizes (capped at what is left), each step's refund. */
function returnInSteps(
  { line, pricesIncludeTax }: { line: StoredLineFigures; pricesIncludeTax: boolean },
  sizes: readonly number[],
): LineRefund[] {
  const steps: LineRefund[] = [];
  let returnedBefore = 0;
  for (const size of sizes) {
    const quantity = Math.min(size, line.quantity - returnedBefore);
    if (quantity === 0) break;
    const result = refundForReturnedUnits({
      pricesIncludeTax,
      shipping: null,
      lines: [{ line, quantity, returnedBefore }],
    });
    if (!result.ok) throw new Error(result.detail);
    steps.push(result.refund.lines[0]!);
    returnedBefore += quantity;
  }
  return steps;
}

const summed = (parts: readonly LineRefund[]) => ({
  quantity: sumMinor(parts.map((p) => p.quantity)),
  goodsMinor: sumMinor(parts.map((p) => p.goodsMinor)),
  discountMinor: sumMinor(parts.map((p) => p.discountMinor)),
  taxMinor: sumMinor(parts.map((p) => p.taxMinor)),
  amountMinor: sumMinor(parts.map((p) => p.amountMinor)),
});

const runs = { numRuns: 500 };

describe('refundForReturnedUnits on random lines and random sequences of partial returns', () => {
  it('never refunds more than the line was paid, and all its units give back exactly its stored figures', () => {
    fc.assert(
      fc.property(storedLine, returnSizes, (stored, sizes) => {
        const { line } = stored;
        const steps = returnInSteps(stored, [...sizes, line.quantity]);
        let refunded = 0;
        for (const step of steps) {
          refunded += step.amountMinor;
          expect(step.amountMinor).toBeGreaterThanOrEqual(0);
          expect(refunded).toBeLessThanOrEqual(line.total);
        }
        expect(summed(steps)).toEqual({
          quantity: line.quantity,
          goodsMinor: line.subtotal,
          discountMinor: line.discount,
          taxMinor: line.tax,
          amountMinor: line.total,
        });
      }),
      runs,
    );
  });

  it('gives the first k units the same figures whether they go back at once or in any steps', () => {
    fc.assert(
      fc.property(storedLine, returnSizes, (stored, sizes) => {
        const steps = returnInSteps(stored, sizes);
        const k = sumMinor(steps.map((s) => s.quantity));
        const [atOnce] = returnInSteps(stored, [k]);
        expect(summed(steps)).toEqual(atOnce);
      }),
      runs,
    );
  });

  it("gives each unit the largest-remainder share of the line's discount and tax: within one minor unit", () => {
    const smallLine = storedLine.filter(({ line }) => line.quantity <= 60);
    fc.assert(
      fc.property(smallLine, (stored) => {
        const { line } = stored;
        const units = returnInSteps(stored, new Array<number>(line.quantity).fill(1));
        const ones = new Array<number>(line.quantity).fill(1);
        // The same split as money.ts's allocate over equal weights (ties to the lower index: units 1, 2, … first).
        expect(units.map((u) => u.discountMinor)).toEqual(allocate(line.discount, ones));
        expect(units.map((u) => u.taxMinor)).toEqual(allocate(line.tax, ones));
        for (const figure of ['discountMinor', 'taxMinor', 'amountMinor'] as const) {
          const values = units.map((u) => u[figure]);
          expect(Math.max(...values) - Math.min(...values)).toBeLessThanOrEqual(1);
        }
      }),
      runs,
    );
  });

  it('splits amounts near the safe-integer limit exactly (the share of the first k units, checked in bigint)', () => {
    const huge = fc
      .record({
        quantity: fc.integer({ min: 1, max: 1000 }),
        k: fc.nat(),
        discountPart: fc.bigInt({ min: 0n, max: 1000n }),
      })
      .map(({ quantity, k, discountPart }) => {
        const unitPrice = Math.floor(Number.MAX_SAFE_INTEGER / quantity);
        const subtotal = unitPrice * quantity;
        const discount = Number((BigInt(subtotal) * discountPart) / 1000n);
        const line = { quantity, unitPrice, subtotal, discount, tax: 0, total: subtotal - discount };
        return { line, first: k % (quantity + 1) };
      });
    fc.assert(
      fc.property(huge, ({ line, first }) => {
        const result = refundForReturnedUnits({
          pricesIncludeTax: false,
          shipping: null,
          lines: [{ line, quantity: first, returnedBefore: 0 }],
        });
        const d = BigInt(line.discount);
        const q = BigInt(line.quantity);
        const k = BigInt(first);
        const expected = k * (d / q) + (k < d % q ? k : d % q);
        expect(result.ok && result.refund.discountMinor).toBe(Number(expected));
      }),
      runs,
    );
  });

  it('refuses to return more units than are left, as a value naming the figures', () => {
    const overReturn = storedLine.chain((stored) =>
      fc
        .integer({ min: 0, max: stored.line.quantity })
        .chain((returnedBefore) =>
          fc
            .integer({ min: stored.line.quantity - returnedBefore + 1, max: stored.line.quantity + 5 })
            .map((quantity) => ({ stored, returnedBefore, quantity })),
        ),
    );
    fc.assert(
      fc.property(overReturn, ({ stored, returnedBefore, quantity }) => {
        const result = refundForReturnedUnits({
          pricesIncludeTax: stored.pricesIncludeTax,
          shipping: null,
          lines: [{ line: stored.line, quantity, returnedBefore }],
        });
        expect(result).toMatchObject({
          ok: false,
          reason: 'more_than_bought',
          lines: [{ index: 0, bought: stored.line.quantity, returnedBefore, returning: quantity }],
        });
      }),
      runs,
    );
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Whole orders, priced by priceOrder and stored as placement stores them, returned in random steps.

const pricingLine = fc.record({
  productId: fc.integer({ min: 1, max: 3 }),
  quantity: fc.integer({ min: 1, max: 12 }),
  unitPriceMinor: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 200_000 })),
  taxed: fc.boolean(),
});

const actions: fc.Arbitrary<PromotionAction>[] = [
  fc.constantFrom('10', '12.5', '33.3333').map((percent) => ({ type: 'order_percentage', percent, products: null })),
  fc.record({ buyQuantity: fc.integer({ min: 1, max: 3 }), percent: fc.constantFrom('50', '100') }).map((deal) => ({
    type: 'buy_x_get_y',
    buyQuantity: deal.buyQuantity,
    buyProducts: null,
    getQuantity: 1,
    getProducts: [1],
    percent: deal.percent,
    repeat: true,
  })),
  fc.constant({ type: 'item_fixed', amountMinor: 77, products: [2], maxUnits: null }),
  fc.constantFrom('50', '100').map((percent) => ({ type: 'shipping_percentage', percent })),
];

const orders: fc.Arbitrary<PricingInput> = fc
  .record({
    currency: fc.constantFrom('USD', 'JPY', 'KWD'),
    roundingMode: fc.constantFrom(...ROUNDING_MODES),
    pricesIncludeTax: fc.boolean(),
    shippingTaxable: fc.boolean(),
    lines: fc.array(pricingLine, { minLength: 1, maxLength: 4 }),
    rate: fc.constantFrom('0', '5', '7.25', '8.875', '20'),
    shippingMinor: fc.option(fc.integer({ min: 0, max: 20_000 }), { nil: null }),
    promotions: fc.subarray(actions).chain((chosen) => fc.tuple(...chosen)),
  })
  .map((o) => ({
    config: {
      currency: o.currency,
      roundingMode: o.roundingMode,
      pricesIncludeTax: o.pricesIncludeTax,
      shippingTaxable: o.shippingTaxable,
    },
    lines: o.lines.map(
      (l, i): PricingLine => ({
        alias: `line${i}`,
        variantId: i + 1,
        productId: l.productId,
        name: `Line ${i}`,
        quantity: l.quantity,
        unitPriceMinor: l.unitPriceMinor,
        weightGrams: null,
        taxClass: l.taxed ? { id: 1, name: 'Standard' } : null,
      }),
    ),
    taxRates: new Map([[1, o.rate]]),
    shipping: o.shippingMinor === null ? null : { type: 'custom', name: 'Courier', amountMinor: o.shippingMinor },
    promotions: o.promotions.map((action, i) => testPromotion({ id: i + 1, priority: i, action })),
    customDiscount: null,
  }));

/** One return: units per line (capped at what is left) and whether the shipping goes back with it. */
const steps = fc.array(
  fc.record({
    units: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 4, maxLength: 4 }),
    shipping: fc.boolean(),
  }),
  { maxLength: 8 },
);

/** The order's lines and shipping as the order row stores them (src/placement/placed-order.ts). */
const storedFigures = (o: PricedOrder) => ({
  lines: o.lines.map(
    (l): StoredLineFigures => ({
      quantity: l.quantity,
      unitPrice: l.unitPriceMinor,
      subtotal: l.subtotalMinor,
      discount: l.discountMinor,
      tax: l.taxMinor,
      total: l.totalMinor,
    }),
  ),
  shipping: {
    shippingFee: o.shippingFeeMinor,
    shippingDiscount: o.shippingDiscountMinor,
    shippingTax: o.shippingTaxMinor,
  },
});

describe('refundForReturnedUnits on random orders returned in random steps', () => {
  it('gives back exactly the order total, and its SPEC 6 figures, once every unit and the shipping are back', () => {
    fc.assert(
      fc.property(orders, steps, (input, returns) => {
        const order = priceOrder(input);
        const { pricesIncludeTax } = order;
        const figures = storedFigures(order);
        const returned = figures.lines.map(() => 0);
        const shippingRefunded = { feeMinor: 0, discountMinor: 0, taxMinor: 0 };
        const refunds: ReturnRefund[] = [];
        const returnOnce = (units: (line: StoredLineFigures, i: number) => number, withShipping: boolean) => {
          const lines: LineReturn[] = figures.lines.map((line, i) => ({
            line,
            quantity: Math.min(units(line, i), line.quantity - (returned[i] ?? 0)),
            returnedBefore: returned[i] ?? 0,
          }));
          const request: ReturnRefundInput = {
            pricesIncludeTax,
            lines,
            shipping: withShipping ? { ...figures.shipping, refundedBefore: { ...shippingRefunded } } : null,
          };
          const result = refundForReturnedUnits(request);
          if (!result.ok) throw new Error(result.detail);
          const r = result.refund;
          // Each refund keeps SPEC 6's identity: goods − discount + shipping fee (+ tax on net prices) = amount.
          const base = r.goodsMinor - r.discountMinor + r.shippingFeeMinor;
          expect(r.amountMinor).toBe(pricesIncludeTax ? base : base + r.taxMinor);
          lines.forEach((l, i) => {
            returned[i] = (returned[i] ?? 0) + l.quantity;
          });
          if (r.shipping) {
            shippingRefunded.feeMinor += r.shipping.feeMinor;
            shippingRefunded.discountMinor += r.shipping.discountMinor;
            shippingRefunded.taxMinor += r.shipping.taxMinor;
          }
          refunds.push(r);
          expect(sumMinor(refunds.map((x) => x.amountMinor))).toBeLessThanOrEqual(order.totalMinor);
        };
        for (const step of returns) returnOnce((_, i) => step.units[i] ?? 0, step.shipping);
        returnOnce((line) => line.quantity, true);

        const total = (pick: (r: ReturnRefund) => number) => sumMinor(refunds.map(pick));
        expect(total((r) => r.amountMinor)).toBe(order.totalMinor);
        expect(total((r) => r.goodsMinor)).toBe(order.subtotalMinor);
        expect(total((r) => r.discountMinor)).toBe(order.discountMinor);
        expect(total((r) => r.shippingFeeMinor)).toBe(order.shippingFeeMinor);
        expect(total((r) => r.taxMinor)).toBe(order.estimatedTaxMinor);
        order.lines.forEach((line, i) => {
          expect(sumMinor(refunds.map((r) => r.lines[i]?.amountMinor ?? 0))).toBe(line.totalMinor);
        });
      }),
      runs,
    );
  });
});

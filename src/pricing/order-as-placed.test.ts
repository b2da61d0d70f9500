import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PlacedOrderBasis, pricingInputAsPlaced } from './order-as-placed.js';
import { priceOrder } from './pricing.calculator.js';
import { randomOrders } from './pricing.testing.js';
import type { PricedOrder, PricingInput } from './pricing.types.js';

/** What placement keeps of a priced order (src/placement/placed-order.ts), as the basis to price it again from. */
function keptOf(input: PricingInput, placed: PricedOrder): PlacedOrderBasis {
  const applied = new Set(placed.promotions.map((p) => p.id));
  return {
    currency: placed.currency,
    pricesIncludeTax: placed.pricesIncludeTax,
    lines: placed.lines.map((l) => ({
      alias: l.alias,
      variantId: l.variantId,
      productId: l.productId,
      name: l.name,
      quantity: l.quantity,
      unitPriceMinor: l.unitPriceMinor,
      taxClassName: l.taxClass?.name ?? null,
      taxRate: l.taxRate,
    })),
    shipping:
      placed.shippingName === null
        ? null
        : { name: placed.shippingName, feeMinor: placed.shippingFeeMinor, taxRate: placed.shippingTaxRate },
    discountName: placed.discountName,
    discountMinor: placed.discountMinor,
    promotions: input.promotions.filter((p) => applied.has(p.id)),
  };
}

/** The figures an order keeps (its lines' and its own), without what only an answer shows (tax details, weight). */
function keptFigures(o: PricedOrder) {
  const { taxDetails: _details, weightGrams: _weight, ...order } = o;
  return {
    ...order,
    lines: o.lines.map(({ taxClass, ...line }) => ({ ...line, taxClassName: taxClass?.name ?? null })),
  };
}

describe('pricingInputAsPlaced', () => {
  it('prices a placed order again to exactly the figures it kept (random orders, USD/JPY/KWD, every mode)', () => {
    fc.assert(
      fc.property(randomOrders, (input) => {
        const placed = priceOrder(input);
        const again = priceOrder(pricingInputAsPlaced(keptOf(input, placed), input.config.roundingMode));
        expect(keptFigures(again)).toEqual(keptFigures(placed));
      }),
      { numRuns: 1000 },
    );
  });

  it("keeps an admin's custom discount of the amount that applied, and no discount as none", () => {
    const base: PlacedOrderBasis = {
      currency: 'USD',
      pricesIncludeTax: false,
      lines: [
        {
          alias: 'a',
          variantId: 1,
          productId: 1,
          name: 'A',
          quantity: 2,
          unitPriceMinor: 1000,
          taxClassName: null,
          taxRate: '0',
        },
      ],
      shipping: null,
      discountName: null,
      discountMinor: 0,
      promotions: [],
    };
    expect(pricingInputAsPlaced(base, 'half_up').customDiscount).toBeNull();
    const goodwill = pricingInputAsPlaced({ ...base, discountName: 'Goodwill', discountMinor: 250 }, 'half_up');
    expect(goodwill.customDiscount).toEqual({ name: 'Goodwill', amountMinor: 250 });
    expect(priceOrder(goodwill).totalMinor).toBe(1750);
  });

  it('gives each kept (tax class, rate) pair its own class, so two rates of one class name stay apart', () => {
    const line = { variantId: 1, productId: 1, name: 'A', quantity: 1, unitPriceMinor: 10000 };
    const input = pricingInputAsPlaced(
      {
        currency: 'USD',
        pricesIncludeTax: false,
        lines: [
          { ...line, alias: 'a', taxClassName: 'Standard', taxRate: '8.25' },
          { ...line, alias: 'b', taxClassName: 'Standard', taxRate: '5' },
          { ...line, alias: 'c', taxClassName: 'Standard', taxRate: '8.25' },
        ],
        shipping: { name: 'Ground', feeMinor: 1000, taxRate: '8.25' },
        discountName: null,
        discountMinor: 0,
        promotions: [],
      },
      'half_up',
    );
    const priced = priceOrder(input);
    // 100.00 at 8.25 % = 8.25, at 5 % = 5.00; shipping 10.00 at 8.25 % = 0.825 → 0.83 (half up).
    expect(priced.lines.map((l) => l.taxMinor)).toEqual([825, 500, 825]);
    expect(priced.shippingTaxMinor).toBe(83);
    expect(priced.totalMinor).toBe(30000 + 2150 + 1000 + 83);
  });
});

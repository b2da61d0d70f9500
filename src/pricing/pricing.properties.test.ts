import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { currencyFormat, sumMinor } from '../shared/money.js';
import { priceOrder } from './pricing.calculator.js';
import { randomOrders } from './pricing.testing.js';
import { presentPricedOrder } from './pricing.presenter.js';

const runs = { numRuns: 1000 };

describe('priceOrder on random orders in USD, JPY and KWD', () => {
  it('keeps subtotal − discount + shipping (+ tax on net prices) = total, on net and gross prices', () => {
    fc.assert(
      fc.property(randomOrders, (input) => {
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
      fc.property(randomOrders, (input) => {
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
      fc.property(randomOrders, (input) => {
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
      fc.property(randomOrders, (input) => {
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
      fc.property(randomOrders, (input) => {
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
      fc.property(randomOrders, (input) => {
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
      fc.property(randomOrders, (input) => {
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

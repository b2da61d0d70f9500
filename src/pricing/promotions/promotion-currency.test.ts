import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appliesInCurrency, promotionInCurrency } from './promotion-currency.js';
import { testPromotion } from './promotion.testing.js';

const usd = { order: 'USD', store: 'USD' };
const eur = { order: 'EUR', store: 'USD' };
const jpy = { order: 'JPY', store: 'USD' };

const percent = testPromotion({ id: 1, action: { type: 'order_percentage', percent: '10', products: null } });
const fixed = testPromotion({ id: 2, action: { type: 'order_fixed', amountMinor: 500, products: null } });
const freeShipping = testPromotion({ id: 3, action: { type: 'free_shipping' } });
const percentOverFifty = testPromotion({
  id: 4,
  action: { type: 'order_percentage', percent: '10', products: null },
  conditions: [{ type: 'min_subtotal', amountMinor: 5000 }],
});
const fixedWithEuros = testPromotion({
  id: 5,
  action: { type: 'order_fixed', amountMinor: 500, amountsMinor: { EUR: 400 }, products: null },
});
const eurosOverFifty = testPromotion({
  id: 6,
  action: { type: 'order_fixed', amountMinor: 500, amountsMinor: { EUR: 400, JPY: 800 }, products: null },
  conditions: [{ type: 'min_subtotal', amountMinor: 5000, amountsMinor: { EUR: 4500 } }],
});

describe('a promotion in another currency than the store’s', () => {
  it('applies in the store currency whatever it names, with its own amounts', () => {
    for (const p of [percent, fixed, freeShipping, percentOverFifty, fixedWithEuros, eurosOverFifty]) {
      expect(promotionInCurrency(p, usd)).toBe(p);
    }
  });

  it('applies everywhere when it names no money, unchanged', () => {
    expect(promotionInCurrency(percent, jpy)).toEqual(percent);
    expect(promotionInCurrency(freeShipping, eur)).toEqual(freeShipping);
  });

  it('takes the amount of the order’s currency where the promotion gives one', () => {
    expect(promotionInCurrency(fixedWithEuros, eur)?.action).toEqual({
      type: 'order_fixed',
      amountMinor: 400,
      products: null,
    });
  });

  it('does not apply where a money field, action or condition, has no amount in the order’s currency', () => {
    expect([fixed, percentOverFifty, fixedWithEuros].map((p) => appliesInCurrency(p, jpy))).toEqual([
      false,
      false,
      false,
    ]);
    // The action has yen, the minimum subtotal has none.
    expect(appliesInCurrency(eurosOverFifty, jpy)).toBe(false);
    const inEuros = promotionInCurrency(eurosOverFifty, eur);
    expect(inEuros?.conditions).toEqual([{ type: 'min_subtotal', amountMinor: 4500 }]);
    expect(inEuros?.action).toMatchObject({ amountMinor: 400 });
  });

  it('never keeps a store-currency amount in an order of another currency (property)', () => {
    const currencies = fc.constantFrom('EUR', 'JPY', 'KWD', 'GBP');
    fc.assert(
      fc.property(
        fc.dictionary(currencies, fc.integer({ min: 1, max: 1_000_000 })),
        fc.dictionary(currencies, fc.integer({ min: 1, max: 1_000_000 })),
        currencies,
        (actionAmounts, minimumAmounts, order) => {
          const promotion = testPromotion({
            id: 9,
            action: { type: 'order_fixed', amountMinor: 123_456_789, amountsMinor: actionAmounts, products: null },
            conditions: [{ type: 'min_subtotal', amountMinor: 987_654_321, amountsMinor: minimumAmounts }],
          });
          const local = promotionInCurrency(promotion, { order, store: 'USD' });
          if (actionAmounts[order] === undefined || minimumAmounts[order] === undefined) {
            expect(local).toBeNull();
            return;
          }
          expect(local?.action).toEqual({ type: 'order_fixed', amountMinor: actionAmounts[order], products: null });
          expect(local?.conditions).toEqual([{ type: 'min_subtotal', amountMinor: minimumAmounts[order] }]);
        },
      ),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { appliesInCurrency, hasStoreCurrencyAmounts } from './promotion-currency.js';
import { testPromotion } from './promotion.testing.js';

const percent = testPromotion({ id: 1, action: { type: 'order_percentage', percent: '10', products: null } });
const fixed = testPromotion({ id: 2, action: { type: 'order_fixed', amountMinor: 500, products: null } });
const freeShipping = testPromotion({ id: 3, action: { type: 'free_shipping' } });
const percentOverFifty = testPromotion({
  id: 4,
  action: { type: 'order_percentage', percent: '10', products: null },
  conditions: [{ type: 'min_subtotal', amountMinor: 5000 }],
});

describe('a promotion in another currency than the store’s', () => {
  it('knows which promotions name an amount of the store currency', () => {
    expect([percent, fixed, freeShipping, percentOverFifty].map(hasStoreCurrencyAmounts)).toEqual([
      false,
      true,
      false,
      true,
    ]);
  });

  it('applies in the store currency whatever it names, elsewhere only without amounts', () => {
    const usd = { order: 'USD', store: 'USD' };
    const jpy = { order: 'JPY', store: 'USD' };
    expect([percent, fixed, freeShipping, percentOverFifty].map((p) => appliesInCurrency(p, usd))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect([percent, fixed, freeShipping, percentOverFifty].map((p) => appliesInCurrency(p, jpy))).toEqual([
      true,
      false,
      true,
      false,
    ]);
  });
});

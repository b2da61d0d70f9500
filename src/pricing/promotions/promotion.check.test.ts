import { describe, expect, it } from 'vitest';
import { checkConditions, checkPromotion, type PromotionCheckInput } from './promotion.check.js';
import { testOrder, testPromotion } from './promotion.testing.js';
import type { Promotion } from './promotion.types.js';

const now = new Date('2026-07-01T12:00:00Z');
const summerSale = (fields: Partial<Promotion> = {}) =>
  testPromotion({ id: 3, name: 'Summer sale', action: { type: 'free_shipping' }, ...fields });

function check(promotion: Promotion, context: Partial<Omit<PromotionCheckInput, 'promotion'>> = {}) {
  return checkPromotion({
    promotion,
    usage: { total: 0, byCustomer: 0 },
    customer: { userId: 7, email: 'ada@example.com', hasPreviousOrders: false },
    order: testOrder([
      [1, 2000, 1],
      [2, 500, 2],
    ]),
    now,
    ...context,
  });
}

describe('checkPromotion', () => {
  it('names an automatic promotion by its name, and a code by its code', () => {
    expect(check(summerSale({ isActive: false }))).toEqual({
      ok: false,
      rule: 'inactive',
      detail: 'promotion "Summer sale" is not active',
    });
    expect(check(summerSale({ code: 'SUN', expiresAt: now }))).toEqual({
      ok: false,
      rule: 'expired',
      detail: 'promo code SUN expired at 2026-07-01T12:00:00.000Z',
    });
  });

  it('names a failing condition after its type, with its sentence', () => {
    const promotion = summerSale({
      code: 'SAVE10',
      conditions: [
        { type: 'contains_products', products: [1] },
        { type: 'min_subtotal', amountMinor: 5000 },
      ],
    });
    expect(check(promotion)).toEqual({
      ok: false,
      rule: 'min_subtotal',
      detail: "promo code SAVE10 needs a subtotal of at least 50.00 USD; this order's is 30.00 USD",
    });
    const quantity = summerSale({ conditions: [{ type: 'min_quantity', quantity: 4, products: null }] });
    expect(check(quantity)).toEqual({
      ok: false,
      rule: 'min_quantity',
      detail: 'promotion "Summer sale" needs at least 4 items; this order has 3',
    });
  });

  it('checks the promotion’s own rules before its conditions, and conditions in their order', () => {
    const both = summerSale({
      redemptionLimit: 1,
      conditions: [
        { type: 'contains_products', products: [9] },
        { type: 'min_subtotal', amountMinor: 99_999 },
      ],
    });
    expect(check(both, { usage: { total: 1, byCustomer: 0 } })).toMatchObject({ rule: 'redemption_limit' });
    expect(check(both)).toMatchObject({ rule: 'contains_products' });
    expect(checkConditions(both, testOrder([[9, 100, 1]]))).toMatchObject({ rule: 'min_subtotal' });
  });

  it('holds for an automatic promotion whose every rule holds', () => {
    const open = summerSale({
      startsAt: now,
      expiresAt: new Date(now.getTime() + 1),
      specificCustomerIds: [7],
      newCustomersOnly: true,
      usageLimitPerCustomer: 2,
      conditions: [{ type: 'min_quantity', quantity: 2, products: [2] }],
    });
    expect(check(open, { usage: { total: 10, byCustomer: 1 } })).toEqual({ ok: true });
  });
});

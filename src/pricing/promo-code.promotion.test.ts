import { describe, expect, it } from 'vitest';
import { normalisePromoCode, type PromoCodeRecord, promoCodePromotion } from './promo-code.promotion.js';
import { checkPromotion, type PromotionCheckInput } from './promotions/promotion.check.js';

const now = new Date('2025-06-15T12:00:00Z');

function promo(fields: Partial<PromoCodeRecord> = {}): PromoCodeRecord {
  return {
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
    ...fields,
  };
}

/** The rules of a stored code, checked as the promotion it becomes. */
function check(fields: Partial<PromoCodeRecord>, context: Partial<Omit<PromotionCheckInput, 'promotion'>> = {}) {
  return checkPromotion({
    promotion: promoCodePromotion(promo(fields), { id: 1, currency: 'USD' }),
    usage: { total: 0, byCustomer: 0 },
    customer: { userId: 7, email: 'ada@example.com', hasPreviousOrders: false },
    order: {
      currency: 'USD',
      subtotalMinor: 5000,
      lines: [
        { productId: 1, quantity: 1 },
        { productId: 2, quantity: 1 },
      ],
    },
    now,
    ...context,
  });
}

describe('checkPromotion on a stored promo code', () => {
  it('accepts a code whose every rule holds', () => {
    expect(
      check(
        {
          startsAt: new Date('2025-06-01T00:00:00Z'),
          expiresAt: new Date('2025-07-01T00:00:00Z'),
          minPurchaseMinor: 5000,
          redemptionLimit: 100,
          usageLimitPerCustomer: 1,
          specificCustomerIds: [7, 8],
          applicableProductIds: [2, 9],
          newCustomersOnly: true,
        },
        { usage: { total: 99, byCustomer: 0 } },
      ),
    ).toEqual({ ok: true });
  });

  it('refuses an inactive code', () => {
    expect(check({ isActive: false })).toEqual({
      ok: false,
      rule: 'inactive',
      detail: 'promo code SAVE10 is not active',
    });
  });

  it('refuses a code before it starts', () => {
    expect(check({ startsAt: new Date('2025-06-15T12:00:01Z') })).toEqual({
      ok: false,
      rule: 'not_started',
      detail: 'promo code SAVE10 is valid from 2025-06-15T12:00:01.000Z',
    });
    expect(check({ startsAt: now }).ok).toBe(true);
  });

  it('refuses a code from the moment it expires', () => {
    expect(check({ expiresAt: now })).toEqual({
      ok: false,
      rule: 'expired',
      detail: 'promo code SAVE10 expired at 2025-06-15T12:00:00.000Z',
    });
    expect(check({ expiresAt: new Date(now.getTime() + 1) }).ok).toBe(true);
  });

  it('refuses a code redeemed as often as its global limit allows', () => {
    expect(check({ redemptionLimit: 3 }, { usage: { total: 3, byCustomer: 0 } })).toMatchObject({
      ok: false,
      rule: 'redemption_limit',
    });
    expect(check({ redemptionLimit: 3 }, { usage: { total: 2, byCustomer: 0 } }).ok).toBe(true);
  });

  it('refuses a customer who used the code as often as allowed per customer', () => {
    expect(check({ usageLimitPerCustomer: 1 }, { usage: { total: 5, byCustomer: 1 } })).toEqual({
      ok: false,
      rule: 'customer_limit',
      detail: 'promo code SAVE10 can be used once per customer and you have already used it',
    });
    expect(check({ usageLimitPerCustomer: 2 }, { usage: { total: 5, byCustomer: 1 } }).ok).toBe(true);
  });

  it('refuses customers not on the list, and guests, when the code names its customers', () => {
    expect(check({ specificCustomerIds: [8] })).toMatchObject({ ok: false, rule: 'specific_customers' });
    expect(
      check(
        { specificCustomerIds: [7] },
        { customer: { userId: null, email: 'g@example.com', hasPreviousOrders: false } },
      ),
    ).toEqual({
      ok: false,
      rule: 'specific_customers',
      detail: 'promo code SAVE10 is reserved for specific customers; sign in to use it',
    });
    expect(check({ specificCustomerIds: [] }).ok).toBe(true);
  });

  it('refuses an order with none of the products the code applies to', () => {
    expect(check({ applicableProductIds: [3, 4] })).toEqual({
      ok: false,
      rule: 'contains_products',
      detail: 'promo code SAVE10 applies to none of the products in this order',
    });
  });

  it('refuses a subtotal under the minimum purchase, naming both amounts', () => {
    expect(check({ minPurchaseMinor: 5001 })).toEqual({
      ok: false,
      rule: 'min_subtotal',
      detail: "promo code SAVE10 needs a subtotal of at least 50.01 USD; this order's is 50.00 USD",
    });
  });

  it('refuses a customer with previous orders when the code is for new customers', () => {
    expect(
      check({ newCustomersOnly: true }, { customer: { userId: 7, email: null, hasPreviousOrders: true } }),
    ).toEqual({
      ok: false,
      rule: 'new_customers_only',
      detail: "promo code SAVE10 is for a customer's first order only",
    });
  });

  it('gives every rule its own detail', () => {
    const failures = [
      check({ isActive: false }),
      check({ startsAt: new Date('2030-01-01T00:00:00Z') }),
      check({ expiresAt: now }),
      check({ redemptionLimit: 0 }),
      check({ specificCustomerIds: [1] }),
      check({ newCustomersOnly: true }, { customer: { userId: 7, email: null, hasPreviousOrders: true } }),
      check({ usageLimitPerCustomer: 0 }),
      check({ applicableProductIds: [99] }),
      check({ minPurchaseMinor: 999999 }),
    ];
    const details = failures.map((failure) => (failure.ok ? 'ok' : failure.detail));
    expect(new Set(details).size).toBe(9);
    expect(new Set(failures.map((failure) => (failure.ok ? 'ok' : failure.rule))).size).toBe(9);
  });
});

describe('promoCodePromotion', () => {
  it('makes a percentage code an order percentage over its products, which the order must contain', () => {
    expect(
      promoCodePromotion(promo({ applicableProductIds: [3], minPurchaseMinor: 2000 }), { id: 4, currency: 'USD' }),
    ).toEqual({
      id: 4,
      name: 'Promo code SAVE10 (10%)',
      code: 'SAVE10',
      isActive: true,
      startsAt: null,
      expiresAt: null,
      priority: 0,
      combinable: true,
      redemptionLimit: null,
      usageLimitPerCustomer: null,
      newCustomersOnly: false,
      specificCustomerIds: null,
      conditions: [
        { type: 'contains_products', products: [3] },
        { type: 'min_subtotal', amountMinor: 2000 },
      ],
      action: { type: 'order_percentage', percent: '10', products: [3] },
    });
  });

  it('makes a fixed code an order amount in minor units of the store currency, and keeps its limits', () => {
    const options = { id: 5, currency: 'USD' };
    const five = promoCodePromotion(
      promo({ code: 'FIVE', codeType: 'fixed', value: '5.00', redemptionLimit: 9, usageLimitPerCustomer: 1 }),
      options,
    );
    expect(five).toMatchObject({
      name: 'Promo code FIVE (5.00 USD off)',
      redemptionLimit: 9,
      usageLimitPerCustomer: 1,
      conditions: [],
      action: { type: 'order_fixed', amountMinor: 500, products: null },
    });
    const kwd = promoCodePromotion(promo({ code: 'FIVE', codeType: 'fixed', value: '5' }), { id: 5, currency: 'KWD' });
    expect(kwd).toMatchObject({ name: 'Promo code FIVE (5.000 KWD off)', action: { amountMinor: 5000 } });
  });

  it('makes a free-shipping code a free-shipping promotion, and an empty product list every product', () => {
    const ship = promoCodePromotion(
      promo({ code: 'SHIP', codeType: 'free_shipping', value: '0', applicableProductIds: [] }),
      {
        id: 6,
        currency: 'JPY',
      },
    );
    expect(ship).toMatchObject({
      name: 'Promo code SHIP (free shipping)',
      conditions: [],
      action: { type: 'free_shipping' },
    });
  });
});

describe('normalisePromoCode', () => {
  it('makes codes case-insensitive', () => {
    expect(normalisePromoCode('  save10 ')).toBe('SAVE10');
  });
});

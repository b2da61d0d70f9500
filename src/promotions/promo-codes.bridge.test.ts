import { describe, expect, it } from 'vitest';
import { type PromoCodeFields, promoCodeView, promotionFromPromoCode } from './promo-codes.bridge.js';
import type { PromotionRow } from './promotions.repository.js';

const code = (overrides: Partial<PromoCodeFields> = {}): PromoCodeFields => ({
  code: 'SAVE',
  codeType: 'percentage',
  value: '10',
  isActive: true,
  startsAt: null,
  expiresAt: null,
  minPurchaseAmount: null,
  redemptionLimit: null,
  usageLimitPerCustomer: null,
  specificCustomers: null,
  applicableProducts: null,
  newCustomersOnly: false,
  amounts: null,
  minPurchaseAmounts: null,
  ...overrides,
});

const stamps = { createdAt: new Date('2026-01-01T00:00:00Z'), updatedAt: new Date('2026-01-02T00:00:00Z') };

/** The row a promo code is stored as. */
const rowOf = (fields: PromoCodeFields, overrides: Partial<PromotionRow> = {}): PromotionRow => ({
  id: 3,
  name: `Promo code ${fields.code}`,
  priority: 0,
  combinable: true,
  timesUsed: 2,
  archivedAt: null,
  ...stamps,
  ...promotionFromPromoCode(fields),
  ...overrides,
});

describe('promo codes as promotions', () => {
  it('stores a percentage code limited to products as a condition and the action on those products', () => {
    const fields = code({ minPurchaseAmount: 3000, applicableProducts: [4, 2] });
    expect(promotionFromPromoCode(fields)).toMatchObject({
      conditions: [
        { type: 'min_subtotal', amount: 3000 },
        { type: 'contains_products', products: [4, 2] },
      ],
      action: { type: 'order_percentage', percent: '10', products: [4, 2] },
    });
  });

  it('stores a fixed code in minor units and a free-shipping code without products on its action', () => {
    expect(promotionFromPromoCode(code({ codeType: 'fixed', value: '500' })).action).toEqual({
      type: 'order_fixed',
      amount: 500,
      products: null,
    });
    expect(
      promotionFromPromoCode(code({ codeType: 'free_shipping', value: '0', applicableProducts: [1] })),
    ).toMatchObject({
      conditions: [{ type: 'contains_products', products: [1] }],
      action: { type: 'free_shipping' },
    });
  });

  it('stores amounts per currency beside a fixed amount and a minimum, as the promotions API does', () => {
    const fields = code({
      codeType: 'fixed',
      value: '500',
      amounts: { EUR: 400 },
      minPurchaseAmount: 3000,
      minPurchaseAmounts: { EUR: 2500 },
    });
    expect(promotionFromPromoCode(fields)).toMatchObject({
      conditions: [{ type: 'min_subtotal', amount: 3000, amounts: { EUR: 2500 } }],
      action: { type: 'order_fixed', amount: 500, products: null, amounts: { EUR: 400 } },
    });
    expect(promotionFromPromoCode(code({ codeType: 'fixed', value: '500', amounts: {} })).action).toEqual({
      type: 'order_fixed',
      amount: 500,
      products: null,
    });
  });

  it('drops what asks nothing: a minimum of 0, empty product and customer lists', () => {
    expect(
      promotionFromPromoCode(code({ minPurchaseAmount: 0, applicableProducts: [], specificCustomers: [] })),
    ).toMatchObject({ conditions: [], specificCustomers: null, action: { products: null } });
  });

  it.each([
    code(),
    code({ codeType: 'fixed', value: '1250', minPurchaseAmount: 5000, applicableProducts: [9, 8] }),
    code({ codeType: 'fixed', value: '500', amounts: { EUR: 400, JPY: 800 }, minPurchaseAmount: 3000 }),
    code({ value: '10', minPurchaseAmount: 3000, minPurchaseAmounts: { EUR: 2500, KWD: 9000 } }),
    code({ codeType: 'free_shipping', value: '0', applicableProducts: [1], specificCustomers: [5] }),
    code({
      isActive: false,
      startsAt: new Date('2030-01-01T00:00:00Z'),
      expiresAt: new Date('2030-02-01T00:00:00Z'),
      redemptionLimit: 10,
      usageLimitPerCustomer: 1,
      newCustomersOnly: true,
    }),
  ])('shows a stored code as it was given: %o', (fields) => {
    expect(promoCodeView(rowOf(fields))).toEqual({ id: 3, ...fields, timesUsed: 2, ...stamps });
  });

  it.each<[string, Partial<PromotionRow>]>([
    ['automatic', { code: null }],
    ['archived', { archivedAt: new Date() }],
    ['an item action', { action: { type: 'item_percentage', percent: '5', products: null, max_units: null } }],
    ['a min_quantity condition', { conditions: [{ type: 'min_quantity', quantity: 2, products: null }] }],
    [
      'two minimums',
      {
        conditions: [
          { type: 'min_subtotal', amount: 1 },
          { type: 'min_subtotal', amount: 2 },
        ],
      },
    ],
    ['products on the action only', { action: { type: 'order_percentage', percent: '5', products: [1] } }],
    [
      'other products on the action than in the condition',
      {
        conditions: [{ type: 'contains_products', products: [1, 2] }],
        action: { type: 'order_fixed', amount: 100, products: [1] },
      },
    ],
    ['products in the condition only', { conditions: [{ type: 'contains_products', products: [1] }] }],
  ])('is no promo code when %s', (_what, overrides) => {
    expect(promoCodeView(rowOf(code(), overrides))).toBeNull();
  });

  it('takes the products of the condition and the action in any order', () => {
    const row = rowOf(code(), {
      conditions: [{ type: 'contains_products', products: [2, 1] }],
      action: { type: 'order_percentage', percent: '5', products: [1, 2] },
    });
    expect(promoCodeView(row)?.applicableProducts).toEqual([2, 1]);
  });
});

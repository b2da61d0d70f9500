import { describe, expect, it } from 'vitest';
import type { StoredPromotionAction, StoredPromotionCondition } from '../db/schema.js';
import type { PromotionAction, PromotionCondition } from '../pricing/promotions/promotion.types.js';
import { promotionAsPlaced, promotionFromRow, promotionTerms } from './promotions.mapper.js';
import type { PromotionRow } from './promotions.repository.js';

const row = (overrides: Partial<PromotionRow> = {}): PromotionRow => ({
  id: 7,
  name: 'Summer sale',
  code: null,
  isActive: true,
  startsAt: null,
  expiresAt: null,
  priority: 0,
  combinable: true,
  redemptionLimit: null,
  usageLimitPerCustomer: null,
  newCustomersOnly: false,
  specificCustomers: null,
  conditions: [],
  action: { type: 'free_shipping' },
  timesUsed: 0,
  archivedAt: null,
  createdAt: new Date('2026-01-01T00:00:00Z'),
  updatedAt: new Date('2026-01-01T00:00:00Z'),
  ...overrides,
});

describe('promotionFromRow', () => {
  it('carries every field of the promotion, renamed as pricing names them', () => {
    const startsAt = new Date('2030-06-01T00:00:00Z');
    const expiresAt = new Date('2030-09-01T00:00:00Z');
    expect(
      promotionFromRow(
        row({
          code: 'SUMMER',
          isActive: false,
          startsAt,
          expiresAt,
          priority: -3,
          combinable: false,
          redemptionLimit: 100,
          usageLimitPerCustomer: 1,
          newCustomersOnly: true,
          specificCustomers: [4, 9],
        }),
      ),
    ).toEqual({
      id: 7,
      name: 'Summer sale',
      code: 'SUMMER',
      isActive: false,
      startsAt,
      expiresAt,
      priority: -3,
      combinable: false,
      redemptionLimit: 100,
      usageLimitPerCustomer: 1,
      newCustomersOnly: true,
      specificCustomerIds: [4, 9],
      conditions: [],
      action: { type: 'free_shipping' },
    });
  });

  it.each<[StoredPromotionCondition, PromotionCondition]>([
    [
      { type: 'min_subtotal', amount: 5000 },
      { type: 'min_subtotal', amountMinor: 5000 },
    ],
    [
      { type: 'min_quantity', quantity: 3, products: null },
      { type: 'min_quantity', quantity: 3, products: null },
    ],
    [
      { type: 'min_quantity', quantity: 2, products: [1, 2] },
      { type: 'min_quantity', quantity: 2, products: [1, 2] },
    ],
    [
      { type: 'contains_products', products: [5] },
      { type: 'contains_products', products: [5] },
    ],
  ])('maps the stored condition %o', (stored, pricing) => {
    expect(promotionFromRow(row({ conditions: [stored, stored] })).conditions).toEqual([pricing, pricing]);
  });

  it.each<[StoredPromotionAction, PromotionAction]>([
    [
      { type: 'order_percentage', percent: '12.5', products: null },
      { type: 'order_percentage', percent: '12.5', products: null },
    ],
    [
      { type: 'order_fixed', amount: 500, products: [3] },
      { type: 'order_fixed', amountMinor: 500, products: [3] },
    ],
    [
      { type: 'item_percentage', percent: '20', products: [7], max_units: 2 },
      { type: 'item_percentage', percent: '20', products: [7], maxUnits: 2 },
    ],
    [
      { type: 'item_fixed', amount: 150, products: null, max_units: null },
      { type: 'item_fixed', amountMinor: 150, products: null, maxUnits: null },
    ],
    [
      {
        type: 'buy_x_get_y',
        buy_quantity: 2,
        buy_products: [1],
        get_quantity: 1,
        get_products: null,
        percent: '100',
        repeat: false,
      },
      {
        type: 'buy_x_get_y',
        buyQuantity: 2,
        buyProducts: [1],
        getQuantity: 1,
        getProducts: null,
        percent: '100',
        repeat: false,
      },
    ],
    [
      { type: 'shipping_percentage', percent: '50' },
      { type: 'shipping_percentage', percent: '50' },
    ],
    [
      { type: 'shipping_fixed', amount: 300 },
      { type: 'shipping_fixed', amountMinor: 300 },
    ],
    [{ type: 'free_shipping' }, { type: 'free_shipping' }],
  ])('maps the stored action %o', (stored, pricing) => {
    expect(promotionFromRow(row({ action: stored })).action).toEqual(pricing);
  });

  it('refuses a stored kind it does not know (a row edited by hand) instead of pricing without it', () => {
    const action = { type: 'bogus' } as unknown as StoredPromotionAction;
    expect(() => promotionFromRow(row({ action }))).toThrow(/unknown type/);
    const conditions = [{ type: 'bogus' }] as unknown as StoredPromotionCondition[];
    expect(() => promotionFromRow(row({ conditions }))).toThrow(/unknown type/);
  });
});

describe('promotionTerms and promotionAsPlaced', () => {
  const stored: StoredPromotionAction[] = [
    { type: 'order_percentage', percent: '12.5', products: null },
    { type: 'order_fixed', amount: 500, products: [3] },
    { type: 'item_percentage', percent: '20', products: [7], max_units: 2 },
    { type: 'item_fixed', amount: 150, products: null, max_units: null },
    {
      type: 'buy_x_get_y',
      buy_quantity: 2,
      buy_products: [1],
      get_quantity: 1,
      get_products: null,
      percent: '100',
      repeat: false,
    },
    { type: 'shipping_percentage', percent: '50' },
    { type: 'shipping_fixed', amount: 300 },
    { type: 'free_shipping' },
  ];
  const conditions: StoredPromotionCondition[] = [
    { type: 'min_subtotal', amount: 5000 },
    { type: 'min_quantity', quantity: 2, products: [1, 2] },
    { type: 'contains_products', products: [5] },
  ];

  it.each(stored)('keeps the stored form of %o, and gives back the promotion pricing took', (action) => {
    const promotion = promotionFromRow(row({ action, conditions, priority: 4, combinable: false, code: 'TEN' }));
    const terms = promotionTerms(promotion);
    expect(terms).toEqual({ priority: 4, combinable: false, conditions, action });
    const applied = { id: 7, name: 'Summer sale', code: 'TEN', kind: action.type, amount: 100, terms };
    expect(promotionAsPlaced(applied)).toEqual({
      ...promotion,
      // Who and when held at placement: not checked again.
      isActive: true,
      startsAt: null,
      expiresAt: null,
      redemptionLimit: null,
      usageLimitPerCustomer: null,
      newCustomersOnly: false,
      specificCustomerIds: null,
    });
  });

  it('holds the terms as placed after the promotion changed, however its window and limits are now', () => {
    const placed = promotionFromRow(row({ action: { type: 'order_percentage', percent: '10', products: null } }));
    const applied = { id: 7, name: 'Summer sale', code: null, kind: 'order_percentage', amount: 100 };
    const terms = promotionTerms(placed);
    const now = promotionFromRow(
      row({ action: { type: 'order_percentage', percent: '50', products: null }, isActive: false, redemptionLimit: 0 }),
    );
    expect(now.action).not.toEqual(placed.action);
    expect(promotionAsPlaced({ ...applied, terms })?.action).toEqual(placed.action);
  });

  it('gives nothing for an order placed before terms were kept', () => {
    expect(promotionAsPlaced({ id: 7, name: 'Old', code: null, kind: 'free_shipping', amount: 0 })).toBeUndefined();
  });
});

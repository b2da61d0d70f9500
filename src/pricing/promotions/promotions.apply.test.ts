import { describe, expect, it } from 'vitest';
import { testPromotion } from './promotion.testing.js';
import type { Promotion, PromotionAction } from './promotion.types.js';
import { applyPromotions } from './promotions.apply.js';

const percentOff = (percent: string): PromotionAction => ({ type: 'order_percentage', percent, products: null });
const amountOff = (amountMinor: number): PromotionAction => ({ type: 'order_fixed', amountMinor, products: null });

/** One line of 100.00 and one of 20.00, shipping 10.00. */
function apply(promotions: Promotion[], shippingFeeMinor = 1000) {
  return applyPromotions({
    promotions,
    lines: [
      { productId: 1, unitPriceMinor: 5000, quantity: 2 },
      { productId: 2, unitPriceMinor: 2000, quantity: 1 },
    ],
    shippingFeeMinor,
    currency: 'USD',
    roundingMode: 'half_up',
  });
}

const applied = (result: ReturnType<typeof apply>) => result.promotions.map((p) => [p.id, p.amountMinor]);

describe('applyPromotions', () => {
  it('applies combinable promotions one after the other on what is left: 10% and 10% give 19%', () => {
    const result = apply([
      testPromotion({ id: 1, action: percentOff('10') }),
      testPromotion({ id: 2, action: percentOff('10') }),
    ]);
    expect(applied(result)).toEqual([
      [1, 1200],
      [2, 1080],
    ]);
    expect(result.discountMinor).toBe(2280);
    expect(result.lines).toEqual([
      {
        discountMinor: 1900,
        adjustments: [
          { promotionId: 1, amountMinor: 1000 },
          { promotionId: 2, amountMinor: 900 },
        ],
      },
      {
        discountMinor: 380,
        adjustments: [
          { promotionId: 1, amountMinor: 200 },
          { promotionId: 2, amountMinor: 180 },
        ],
      },
    ]);
  });

  it('applies higher priority first, then lower id, whatever order the promotions come in', () => {
    const fixed = testPromotion({ id: 5, action: amountOff(1200) });
    const percent = testPromotion({ id: 2, action: percentOff('10') });
    // id 2 first: 12.00, then 12.00 of 108.00 left; with priority 1 the fixed one goes first: 12.00, then 10.80
    expect(applied(apply([fixed, percent]))).toEqual([
      [2, 1200],
      [5, 1200],
    ]);
    expect(applied(apply([percent, { ...fixed, priority: 1 }]))).toEqual([
      [5, 1200],
      [2, 1080],
    ]);
    expect(apply([{ ...fixed, priority: 1 }, percent])).toEqual(apply([percent, { ...fixed, priority: 1 }]));
  });

  it('gives an exclusive promotion alone when it beats the combinable ones together', () => {
    const result = apply([
      testPromotion({ id: 1, action: percentOff('10') }),
      testPromotion({ id: 2, action: { type: 'free_shipping' } }),
      testPromotion({ id: 3, combinable: false, action: amountOff(2500) }),
    ]);
    expect(applied(result)).toEqual([[3, 2500]]);
    expect(result.shippingDiscountMinor).toBe(0);
  });

  it('keeps the combinable ones when they give more, or as much', () => {
    const combinable = [
      testPromotion({ id: 1, action: percentOff('10') }),
      testPromotion({ id: 2, action: { type: 'free_shipping' } }),
    ];
    const more = apply([...combinable, testPromotion({ id: 3, combinable: false, action: amountOff(2100) })]);
    expect(applied(more)).toEqual([
      [1, 1200],
      [2, 1000],
    ]);
    expect(more.shippingDiscountMinor).toBe(1000);
    const tie = apply([...combinable, testPromotion({ id: 3, combinable: false, action: amountOff(2200) })]);
    expect(applied(tie)).toEqual(applied(more));
  });

  it('picks the largest exclusive one; between equal ones the higher priority, then the lower id', () => {
    const exclusive = (id: number, amount: number, priority = 0) =>
      testPromotion({ id, priority, combinable: false, action: amountOff(amount) });
    expect(applied(apply([exclusive(1, 1000), exclusive(2, 1500)]))).toEqual([[2, 1500]]);
    expect(applied(apply([exclusive(4, 1500), exclusive(3, 1500)]))).toEqual([[3, 1500]]);
    expect(applied(apply([exclusive(4, 1500, 1), exclusive(3, 1500)]))).toEqual([[4, 1500]]);
  });

  it('leaves out promotions whose conditions fail, and those that took nothing off', () => {
    const result = apply(
      [
        testPromotion({ id: 1, action: percentOff('50'), conditions: [{ type: 'min_subtotal', amountMinor: 12_001 }] }),
        testPromotion({ id: 2, action: { type: 'free_shipping' } }),
        testPromotion({ id: 3, action: percentOff('10'), conditions: [{ type: 'min_subtotal', amountMinor: 12_000 }] }),
      ],
      0,
    );
    expect(applied(result)).toEqual([[3, 1200]]);
  });

  it('takes shipping discounts one after the other too, never more than the fee', () => {
    const result = apply([
      testPromotion({ id: 1, priority: 1, action: { type: 'shipping_fixed', amountMinor: 300 } }),
      testPromotion({ id: 2, action: { type: 'shipping_percentage', percent: '50' } }),
      testPromotion({ id: 3, action: { type: 'free_shipping' } }),
    ]);
    expect(applied(result)).toEqual([
      [1, 300],
      [2, 350],
      [3, 350],
    ]);
    expect([result.shippingDiscountMinor, result.discountMinor]).toEqual([1000, 1000]);
    expect(result.lines.every((l) => l.adjustments.length === 0)).toBe(true);
  });

  it('lets a later unit action see each unit: after buy 2 get 1 free on three 10.00 units, 3.00 off each: 6.00', () => {
    const result = applyPromotions({
      promotions: [
        testPromotion({
          id: 1,
          priority: 1,
          action: {
            type: 'buy_x_get_y',
            buyQuantity: 2,
            buyProducts: null,
            getQuantity: 1,
            getProducts: null,
            percent: '100',
            repeat: true,
          },
        }),
        testPromotion({ id: 2, action: { type: 'item_fixed', amountMinor: 300, products: null, maxUnits: null } }),
      ],
      lines: [{ productId: 1, unitPriceMinor: 1000, quantity: 3 }],
      shippingFeeMinor: 0,
      currency: 'USD',
      roundingMode: 'half_up',
    });
    expect(applied(result)).toEqual([
      [1, 1000],
      [2, 600],
    ]);
  });

  it('refuses two promotions with one id', () => {
    expect(() =>
      apply([testPromotion({ id: 1, action: percentOff('10') }), testPromotion({ id: 1, action: percentOff('5') })]),
    ).toThrow(RangeError);
  });
});

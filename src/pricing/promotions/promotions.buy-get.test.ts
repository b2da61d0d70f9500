import { describe, expect, it } from 'vitest';
import type { TestLine } from './promotion.testing.js';
import { testPromotion } from './promotion.testing.js';
import type { ActionOf } from './promotion.modules.js';
import type { Promotion, PromotionAction } from './promotion.types.js';
import { applyPromotions } from './promotions.apply.js';

/**
 * Buy-get promotions stacked in one order (issue #24 item 6): a unit one buy-get used, bought to qualify or given, is
 * used up for every buy-get applied after it. Figures by hand, in USD minor units.
 */

const buyGet = (
  buyQuantity: number,
  getQuantity: number,
  fields: Partial<ActionOf<'buy_x_get_y'>> = {},
): PromotionAction => ({
  type: 'buy_x_get_y',
  buyQuantity,
  buyProducts: null,
  getQuantity,
  getProducts: null,
  percent: '100',
  repeat: true,
  ...fields,
});

/** Promotions in the order given (priority falling), applied to lines `[productId, unitPriceMinor, quantity]`. */
function apply(actions: PromotionAction[], lines: TestLine[], extra: Promotion[] = []) {
  const promotions = actions.map((action, i) => testPromotion({ id: i + 1, priority: actions.length - i, action }));
  return applyPromotions({
    promotions: [...promotions, ...extra],
    lines: lines.map(([productId, unitPriceMinor, quantity]) => ({ productId, unitPriceMinor, quantity })),
    shippingFeeMinor: 0,
    currency: 'USD',
    roundingMode: 'half_up',
  });
}

const amounts = (result: ReturnType<typeof apply>) => result.promotions.map((p) => [p.id, p.amountMinor]);

describe('stacked buy-get promotions use each unit once', () => {
  it('two buy 1 get 1 free on three 50.00 units take 50.00 off, not 100.00 (Medusa: "should not reuse units")', () => {
    // The first: one deal, a unit bought and a unit free. The second sees one unit left: no deal.
    const result = apply([buyGet(1, 1), buyGet(1, 1)], [[1, 5000, 3]]);
    expect(amounts(result)).toEqual([[1, 5000]]);
    expect(result.discountMinor).toBe(5000);
  });

  it('two buy 1 get 1 free on four units: each makes one deal, two units free', () => {
    const result = apply([buyGet(1, 1, { repeat: false }), buyGet(1, 1)], [[1, 5000, 4]]);
    expect(amounts(result)).toEqual([
      [1, 5000],
      [2, 5000],
    ]);
  });

  // Units of 50.00: [quantity, free units, discount]. Buy 2 get 1 first: deals of 3, the units left to buy 1 get 1.
  it.each([
    [3, 1, 5000],
    [4, 1, 5000],
    [5, 2, 10_000],
    [6, 2, 10_000],
    [7, 2, 10_000],
    [8, 3, 15_000],
  ])('buy 2 get 1 free, then buy 1 get 1 free, on %i units: %i free, %i off', (quantity, _free, discount) => {
    expect(apply([buyGet(2, 1), buyGet(1, 1)], [[1, 5000, quantity]]).discountMinor).toBe(discount);
  });

  // Buy 1 get 1 first: deals of 2, a unit left over at most, too few for buy 2 get 1.
  it.each([
    [3, 1, 5000],
    [4, 2, 10_000],
    [5, 2, 10_000],
    [6, 3, 15_000],
  ])('buy 1 get 1 free, then buy 2 get 1 free, on %i units: %i free, %i off', (quantity, _free, discount) => {
    const result = apply([buyGet(1, 1), buyGet(2, 1)], [[1, 5000, quantity]]);
    expect(result.discountMinor).toBe(discount);
    expect(result.promotions.map((p) => p.id)).toEqual([1]);
  });

  it('buy 2 get 1 once, then buy 1 get 1 repeated, on five units: 1 + 1 free', () => {
    expect(amounts(apply([buyGet(2, 1, { repeat: false }), buyGet(1, 1)], [[1, 5000, 5]]))).toEqual([
      [1, 5000],
      [2, 5000],
    ]);
  });

  describe('across products: tees 25.00 × 2 (product 1), mugs 12.00 × 6 (product 2)', () => {
    const lines: TestLine[] = [
      [1, 2500, 2],
      [2, 1200, 6],
    ];
    const mugsOnly = buyGet(1, 1, { buyProducts: [2], getProducts: [2] });

    it('buy 2 get 1 free on everything, then mugs buy 1 get 1 free: 36.00 off, not 60.00', () => {
      // First: 8 units, two deals; the two cheapest (mugs) free, the four dearest others bought (2 tees, 2 mugs).
      // Second: two mugs left, one deal: a mug free. Three mugs free in all.
      const result = apply([buyGet(2, 1), mugsOnly], lines);
      expect(amounts(result)).toEqual([
        [1, 2400],
        [2, 1200],
      ]);
      expect(result.lines.map((l) => l.adjustments)).toEqual([
        [],
        [
          { promotionId: 1, amountMinor: 2400 },
          { promotionId: 2, amountMinor: 1200 },
        ],
      ]);
    });

    it('the other way round: mugs first (three deals, all six mugs used), then only tees left: no deal of 3', () => {
      expect(amounts(apply([mugsOnly, buyGet(2, 1)], lines))).toEqual([[1, 3600]]);
    });

    it('qualifies with the dearest units, leaving the cheaper ones to the next: a tee bought, a mug free', () => {
      // Buy a tee, get a mug free, once: the tee and a mug used; mugs buy 1 get 1 then has five mugs: two deals.
      const teeForMug = buyGet(1, 1, { buyProducts: [1], getProducts: [2], repeat: false });
      expect(amounts(apply([teeForMug, mugsOnly], lines))).toEqual([
        [1, 1200],
        [2, 2400],
      ]);
    });
  });

  describe('with percentages', () => {
    it('a unit given at 50% is not given again: two buy 1 get 1 at 50% on three 50.00 units take 25.00', () => {
      expect(
        apply([buyGet(1, 1, { percent: '50' }), buyGet(1, 1, { percent: '50' })], [[1, 5000, 3]]).discountMinor,
      ).toBe(2500);
    });

    it('a later deal discounts units not given yet: 50% on the fresh 50.00 unit, not on the 25.00 one', () => {
      // Four units: the first deal (once) gives one at half price (25.00 left) and uses a full one; the second deal
      // uses the other two, both still 50.00.
      const once = buyGet(1, 1, { percent: '50', repeat: false });
      expect(amounts(apply([once, buyGet(1, 1, { percent: '50' })], [[1, 5000, 4]]))).toEqual([
        [1, 2500],
        [2, 2500],
      ]);
    });
  });
});

describe('other promotions on units a buy-get used', () => {
  const percentEach = (percent: string): PromotionAction => ({
    type: 'item_percentage',
    percent,
    products: null,
    maxUnits: null,
  });

  it('discount what is left of them: 10% each after buy 1 get 1 at 50% on two 50.00 units is 5.00 + 2.50', () => {
    expect(amounts(apply([buyGet(1, 1, { percent: '50' }), percentEach('10')], [[1, 5000, 2]]))).toEqual([
      [1, 2500],
      [2, 750],
    ]);
  });

  it('take nothing off a unit a buy-get made free: 10% of the whole order after buy 1 get 1 free on 50.00 × 2', () => {
    const tenPercent: PromotionAction = { type: 'order_percentage', percent: '10', products: null };
    expect(amounts(apply([buyGet(1, 1), tenPercent], [[1, 5000, 2]]))).toEqual([
      [1, 5000],
      [2, 500],
    ]);
  });

  it('apply before a buy-get without using its units up: the buy-get deals on what they left', () => {
    // 10% off each of three 50.00 units (45.00 left), then buy 2 get 1 free: one unit of 45.00 free.
    expect(amounts(apply([percentEach('10'), buyGet(2, 1)], [[1, 5000, 3]]))).toEqual([
      [1, 1500],
      [2, 4500],
    ]);
  });

  it('between two buy-gets, land on used units first, so the next buy-get deals on the open ones as they were', () => {
    // Four 10.00 units. Buy 1 get 1 free, once: one free, one bought. 1.00 off one unit (max 1): of the three worth
    // 10.00, the bought one (used) takes it. Buy 1 get 1 at 50% then deals on the two open units, both 10.00: 5.00.
    const oneOff: PromotionAction = { type: 'item_fixed', amountMinor: 100, products: null, maxUnits: 1 };
    const once = buyGet(1, 1, { repeat: false });
    expect(amounts(apply([once, oneOff, buyGet(1, 1, { percent: '50' })], [[1, 1000, 4]]))).toEqual([
      [1, 1000],
      [2, 100],
      [3, 500],
    ]);
  });

  it('leave an exclusive buy-get priced alone on the full order', () => {
    const exclusive = testPromotion({ id: 9, combinable: false, action: buyGet(1, 1) });
    // Combinable: one deal (50.00) then nothing; the exclusive alone: one deal too, not more: the combinable ones win.
    const result = apply([buyGet(1, 1), buyGet(1, 1)], [[1, 5000, 3]], [exclusive]);
    expect(amounts(result)).toEqual([[1, 5000]]);
  });
});

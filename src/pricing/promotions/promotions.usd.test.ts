import { describe, expect, it } from 'vitest';
import { priceOrder } from '../pricing.calculator.js';
import { presentPricedOrder } from '../pricing.presenter.js';
import type { PricingConfig, PricingLine, PricingShipping } from '../pricing.types.js';
import { testPromotion } from './promotion.testing.js';
import type { Promotion, PromotionAction } from './promotion.types.js';

/**
 * Hand-computed figures in USD (net prices, half_up): a tee at 25.00 × 2 (product 1, Standard 10%) and a mug at
 * 12.00 (product 2, Reduced 5%), subtotal 62.00; shipping 10.00 taxed at the highest line rate when taxable.
 */
const standard = { id: 1, name: 'Standard' };
const reduced = { id: 2, name: 'Reduced' };
const tee: PricingLine = {
  alias: 'tee',
  variantId: 11,
  productId: 1,
  name: 'Tee',
  quantity: 2,
  unitPriceMinor: 2500,
  weightGrams: null,
  taxClass: standard,
};
const mug: PricingLine = {
  alias: 'mug',
  variantId: 12,
  productId: 2,
  name: 'Mug',
  quantity: 1,
  unitPriceMinor: 1200,
  weightGrams: null,
  taxClass: reduced,
};
const socks: PricingLine = {
  alias: 'socks',
  variantId: 13,
  productId: 3,
  name: 'Socks',
  quantity: 3,
  unitPriceMinor: 400,
  weightGrams: null,
  taxClass: standard,
};
const courier: PricingShipping = { type: 'custom', name: 'Courier', amountMinor: 1000 };

function price(
  promotions: Promotion[],
  options: { lines?: PricingLine[]; shipping?: PricingShipping; config?: Partial<PricingConfig> } = {},
) {
  return priceOrder({
    config: {
      currency: 'USD',
      roundingMode: 'half_up',
      pricesIncludeTax: false,
      shippingTaxable: true,
      ...options.config,
    },
    lines: options.lines ?? [tee, mug],
    taxRates: new Map([
      [1, '10'],
      [2, '5'],
    ]),
    shipping: options.shipping ?? null,
    promotions,
    customDiscount: null,
  });
}

const promotion = (id: number, action: PromotionAction, fields: Partial<Promotion> = {}) =>
  testPromotion({ id, action, ...fields });
/** [line discount, line tax, line total] per line, then [discount, shipping discount, estimated tax, total]. */
const figures = (o: ReturnType<typeof price>) => [
  ...o.lines.map((l) => [l.discountMinor, l.taxMinor, l.totalMinor]),
  [o.discountMinor, o.shippingDiscountMinor, o.estimatedTaxMinor, o.totalMinor],
];

describe('promotions priced in USD', () => {
  it('order_percentage: 20% of the tees only (10.00), tax on what is left', () => {
    // tee (50.00 − 10.00) × 10% = 4.00; mug 12.00 × 5% = 0.60; total 40.00 + 4.00 + 12.00 + 0.60
    expect(figures(price([promotion(1, { type: 'order_percentage', percent: '20', products: [1] })]))).toEqual([
      [1000, 400, 4400],
      [0, 60, 1260],
      [1000, 0, 460, 5660],
    ]);
  });

  it('order_fixed: 7.00 split 5.65 / 1.35 by largest remainder (5.645… and 1.354…)', () => {
    // tee 44.35 × 10% = 4.435 → 4.44; mug 10.65 × 5% = 0.5325 → 0.53; 62.00 − 7.00 + 4.97 = 59.97
    expect(figures(price([promotion(1, { type: 'order_fixed', amountMinor: 700, products: null })]))).toEqual([
      [565, 444, 4879],
      [135, 53, 1118],
      [700, 0, 497, 5997],
    ]);
  });

  it('item_percentage: 15% off 2 units at most, the cheapest first: the mug (1.80) and one tee (3.75)', () => {
    // tee 46.25 × 10% = 4.625 → 4.63; mug 10.20 × 5% = 0.51
    const action: PromotionAction = { type: 'item_percentage', percent: '15', products: null, maxUnits: 2 };
    expect(figures(price([promotion(1, action)]))).toEqual([
      [375, 463, 5088],
      [180, 51, 1071],
      [555, 0, 514, 6159],
    ]);
  });

  it('item_fixed: 3.00 off each tee', () => {
    const action: PromotionAction = { type: 'item_fixed', amountMinor: 300, products: [1], maxUnits: null };
    expect(figures(price([promotion(1, action)]))).toEqual([
      [600, 440, 4840],
      [0, 60, 1260],
      [600, 0, 500, 6100],
    ]);
  });

  describe('buy_x_get_y: buy 2 of anything, get 1 tee or mug at 50%', () => {
    const action: PromotionAction = {
      type: 'buy_x_get_y',
      buyQuantity: 2,
      buyProducts: null,
      getQuantity: 1,
      getProducts: [1, 2],
      percent: '50',
      repeat: true,
    };
    const lines = [socks, tee, mug];

    it('repeats: six units make two deals; the two cheapest get-units (mug 12.00, a tee 25.00) are half price', () => {
      // socks 12.00 × 10% = 1.20; tee 37.50 × 10% = 3.75; mug 6.00 × 5% = 0.30; 74.00 − 18.50 + 5.25 = 60.75
      expect(figures(price([promotion(1, action)], { lines }))).toEqual([
        [0, 120, 1320],
        [1250, 375, 4125],
        [600, 30, 630],
        [1850, 0, 525, 6075],
      ]);
    });

    it('once per order without repeat: only the mug', () => {
      const once = price([promotion(1, { ...action, repeat: false })], { lines });
      expect(once.lines.map((l) => l.discountMinor)).toEqual([0, 0, 600]);
    });
  });

  describe('two buy-get promotions stacked: tees 25.00 × 2 and mugs 12.00 × 6, subtotal 122.00', () => {
    const mugs = { ...mug, quantity: 6 };
    const anyThreeForTwo = promotion(
      1,
      {
        type: 'buy_x_get_y',
        buyQuantity: 2,
        buyProducts: null,
        getQuantity: 1,
        getProducts: null,
        percent: '100',
        repeat: true,
      },
      { name: '3 for 2', priority: 1 },
    );
    const mugsTwoForOne = promotion(
      2,
      {
        type: 'buy_x_get_y',
        buyQuantity: 1,
        buyProducts: [2],
        getQuantity: 1,
        getProducts: [2],
        percent: '100',
        repeat: true,
      },
      { name: 'Mugs 2 for 1' },
    );

    it('use each unit once: 3 for 2 frees two mugs (tees, two mugs bought), 2 for 1 the two left: 36.00 off', () => {
      // Tees untouched: tax 5.00; mugs 72.00 − 36.00 = 36.00 × 5% = 1.80; 122.00 − 36.00 + 6.80 = 92.80
      const o = price([mugsTwoForOne, anyThreeForTwo], { lines: [tee, mugs] });
      expect(figures(o)).toEqual([
        [0, 500, 5500],
        [3600, 180, 3780],
        [3600, 0, 680, 9280],
      ]);
      expect(o.promotions.map((p) => [p.name, p.amountMinor])).toEqual([
        ['3 for 2', 2400],
        ['Mugs 2 for 1', 1200],
      ]);
    });
  });

  describe('shipping discounts on taxable shipping (10.00, taxed at 10%)', () => {
    // lines untouched: tax 5.00 + 0.60
    it('shipping_percentage: 50% off, tax on the 5.00 left', () => {
      const o = price([promotion(1, { type: 'shipping_percentage', percent: '50' })], { shipping: courier });
      expect([o.shippingFeeMinor, o.shippingDiscountMinor, o.discountMinor, o.shippingTaxMinor, o.totalMinor]).toEqual([
        1000, 500, 500, 50, 7310,
      ]);
    });

    it('shipping_fixed: 3.50 off, tax 0.65 on 6.50', () => {
      const o = price([promotion(1, { type: 'shipping_fixed', amountMinor: 350 })], { shipping: courier });
      expect([o.shippingFeeMinor, o.shippingDiscountMinor, o.shippingTaxMinor, o.totalMinor]).toEqual([
        1000, 350, 65, 7475,
      ]);
    });

    it('free_shipping: nothing left to tax, and no shipping tax detail', () => {
      const o = presentPricedOrder(price([promotion(1, { type: 'free_shipping' })], { shipping: courier }));
      expect(o).toMatchObject({ shipping_fee: '10.00', shipping_discount: '10.00', discount: '10.00', total: '67.60' });
      expect(o.tax_details.map((d) => d.tax_class)).toEqual(['Standard', 'Reduced']);
    });
  });

  describe('two combinable promotions', () => {
    const tenPercent = (priority: number) =>
      promotion(1, { type: 'order_percentage', percent: '10', products: null }, { name: '10% off', priority });
    const teeOff = promotion(
      2,
      { type: 'item_fixed', amountMinor: 200, products: [1], maxUnits: null },
      { name: 'Tee deal' },
    );

    it('stack in priority order: 10% first (5.00 + 1.20), then 2.00 off each tee left at 22.50', () => {
      // tee 41.00 × 10% = 4.10; mug 10.80 × 5% = 0.54
      const o = price([teeOff, tenPercent(1)]);
      expect(figures(o)).toEqual([
        [900, 410, 4510],
        [120, 54, 1134],
        [1020, 0, 464, 5644],
      ]);
      expect(o.lines[0]?.adjustments).toEqual([
        { promotionId: 1, amountMinor: 500 },
        { promotionId: 2, amountMinor: 400 },
      ]);
      expect(o.discountName).toBe('10% off, Tee deal');
      expect(o.promotions.map((p) => [p.kind, p.amountMinor])).toEqual([
        ['order_percentage', 620],
        ['item_fixed', 400],
      ]);
    });

    it('the other way round, 10% of what the tee deal left: 4.00 then 5.80 (4.60 + 1.20)', () => {
      expect(price([teeOff, tenPercent(-1)]).promotions.map((p) => [p.id, p.amountMinor])).toEqual([
        [2, 400],
        [1, 580],
      ]);
    });
  });

  describe('an exclusive promotion against the combinable ones', () => {
    const tenPercent = promotion(1, { type: 'order_percentage', percent: '10', products: null });

    it('15.00 off alone beats 10% (6.20): split 12.10 / 2.90, tax 3.79 + 0.455 → 0.46', () => {
      const exclusive = promotion(2, { type: 'order_fixed', amountMinor: 1500, products: null }, { combinable: false });
      const o = price([tenPercent, exclusive]);
      expect(o.promotions.map((p) => p.id)).toEqual([2]);
      expect(figures(o)).toEqual([
        [1210, 379, 4169],
        [290, 46, 956],
        [1500, 0, 425, 5125],
      ]);
    });

    it('5.00 off alone loses to 10%, and is not an error: the order gets the 10%', () => {
      const exclusive = promotion(2, { type: 'order_fixed', amountMinor: 500, products: null }, { combinable: false });
      const o = price([tenPercent, exclusive]);
      expect(o.promotions.map((p) => p.id)).toEqual([1]);
      expect(figures(o).at(-1)).toEqual([620, 0, 504, 6084]);
    });
  });
});

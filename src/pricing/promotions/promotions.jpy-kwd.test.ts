import { describe, expect, it } from 'vitest';
import { priceOrder } from '../pricing.calculator.js';
import { presentPricedOrder } from '../pricing.presenter.js';
import type { PricingConfig, PricingInput, PricingLine } from '../pricing.types.js';
import { testPromotion } from './promotion.testing.js';
import type { PromotionAction } from './promotion.types.js';

const line = (
  fields: Pick<PricingLine, 'alias' | 'productId' | 'unitPriceMinor' | 'quantity' | 'taxClass'>,
): PricingLine => ({
  variantId: fields.productId + 100,
  name: fields.alias,
  weightGrams: null,
  ...fields,
});

function priceWith(
  input: Omit<PricingInput, 'config' | 'promotions' | 'customDiscount'> & { config: PricingConfig },
  actions: PromotionAction[],
) {
  return priceOrder({
    ...input,
    promotions: actions.map((action, i) => testPromotion({ id: i + 1, action })),
    customDiscount: null,
  });
}

/** [Σ line discounts, shipping discount, estimated tax, total]. */
const totals = (o: ReturnType<typeof priceOrder>) => [
  o.discountMinor - o.shippingDiscountMinor,
  o.shippingDiscountMinor,
  o.estimatedTaxMinor,
  o.totalMinor,
];

describe('promotions priced in JPY: bento ¥980 × 3 (8%), tea ¥1,500 (10%), subtotal ¥4,440', () => {
  const config: PricingConfig = {
    currency: 'JPY',
    roundingMode: 'half_up',
    pricesIncludeTax: false,
    shippingTaxable: true,
  };
  const lines = [
    line({ alias: 'bento', productId: 1, unitPriceMinor: 980, quantity: 3, taxClass: { id: 8, name: 'Reduced' } }),
    line({ alias: 'tea', productId: 2, unitPriceMinor: 1500, quantity: 1, taxClass: { id: 10, name: 'Standard' } }),
  ];
  const taxRates = new Map([
    [8, '8'],
    [10, '10'],
  ]);
  const price = (...actions: PromotionAction[]) => priceWith({ config, lines, taxRates, shipping: null }, actions);

  it('order_percentage: 15% = ¥666, split ¥441 / ¥225; tax 199.92 → 200 and 127.5 → 128', () => {
    expect(totals(price({ type: 'order_percentage', percent: '15', products: null }))).toEqual([666, 0, 328, 4102]);
  });

  it('order_fixed: ¥500 split ¥331 / ¥169 (331.08 and 168.92: the larger remainder gets the yen left)', () => {
    const o = price({ type: 'order_fixed', amountMinor: 500, products: null });
    expect(o.lines.map((l) => l.discountMinor)).toEqual([331, 169]);
    expect(totals(o)).toEqual([500, 0, 342, 4282]);
  });

  it('item_percentage: 12.5% per bento is 122.5 → ¥123 each (¥369), where the line’s 12.5% would be ¥368', () => {
    // bento (2940 − 369) × 8% = 205.68 → 206; tea 150
    expect(totals(price({ type: 'item_percentage', percent: '12.5', products: [1], maxUnits: null }))).toEqual([
      369, 0, 356, 4427,
    ]);
  });

  it('item_fixed: ¥200 off 2 units at most, the cheapest first: two bentos', () => {
    expect(totals(price({ type: 'item_fixed', amountMinor: 200, products: null, maxUnits: 2 }))).toEqual([
      400, 0, 353, 4393,
    ]);
  });

  it('buy_x_get_y: buy a tea, get a bento free', () => {
    const action: PromotionAction = {
      type: 'buy_x_get_y',
      buyQuantity: 1,
      buyProducts: [2],
      getQuantity: 1,
      getProducts: [1],
      percent: '100',
      repeat: true,
    };
    // bento 1960 × 8% = 156.8 → 157; tea 150
    expect(totals(price(action))).toEqual([980, 0, 307, 3767]);
  });

  it('two buy a bento, get a bento at 50% stacked: the second finds one bento left, no deal (¥490, not ¥735)', () => {
    const bentoForBento: PromotionAction = {
      type: 'buy_x_get_y',
      buyQuantity: 1,
      buyProducts: [1],
      getQuantity: 1,
      getProducts: [1],
      percent: '50',
      repeat: true,
    };
    // bento 2940 − 490 = 2450 × 8% = 196; tea 150; 4440 − 490 + 346 = 4296
    const o = price(bentoForBento, bentoForBento);
    expect(o.promotions.map((p) => [p.id, p.amountMinor])).toEqual([[1, 490]]);
    expect(totals(o)).toEqual([490, 0, 346, 4296]);
  });

  it('shipping_percentage: half of ¥770, taxed at 10% on the ¥385 left (38.5 → 39)', () => {
    const shipping = { type: 'custom', name: 'Yamato', amountMinor: 770 } as const;
    const o = priceWith({ config, lines, taxRates, shipping }, [{ type: 'shipping_percentage', percent: '50' }]);
    expect([o.shippingFeeMinor, o.shippingTaxMinor, ...totals(o)]).toEqual([770, 39, 0, 385, 424, 5249]);
  });

  it('with prices including tax: ¥98 off one bento (10%, max 1 unit), tax inside what is left', () => {
    const gross = priceWith({ config: { ...config, pricesIncludeTax: true }, lines, taxRates, shipping: null }, [
      { type: 'item_percentage', percent: '10', products: null, maxUnits: 1 },
    ]);
    // bento 2940 − 98 = 2842, inside at 8%: 2842 × 8 / 108 = 210.5… → 211; tea 1500 × 10 / 110 = 136.36… → 136
    expect(totals(gross)).toEqual([98, 0, 347, 4342]);
  });
});

describe('promotions priced in KWD: dates 12.345 × 3 (5%), oud 1.250 × 7 (untaxed), subtotal 45.785', () => {
  const config: PricingConfig = {
    currency: 'KWD',
    roundingMode: 'half_up',
    pricesIncludeTax: false,
    shippingTaxable: true,
  };
  const lines = [
    line({ alias: 'dates', productId: 1, unitPriceMinor: 12345, quantity: 3, taxClass: { id: 7, name: 'VAT' } }),
    line({ alias: 'oud', productId: 2, unitPriceMinor: 1250, quantity: 7, taxClass: null }),
  ];
  const taxRates = new Map([[7, '5']]);
  const price = (...actions: PromotionAction[]) => priceWith({ config, lines, taxRates, shipping: null }, actions);

  it('order_percentage: 12.5% of the oud only, 1.09375 → 1.094; dates tax 1.85175 → 1.852', () => {
    const o = presentPricedOrder(price({ type: 'order_percentage', percent: '12.5', products: [2] }));
    expect(o).toMatchObject({ discount: '1.094', estimated_tax: '1.852', total: '46.543' });
    expect(o.lines.map((l) => l.adjustments)).toEqual([[], [{ promotion_id: 1, amount: '1.094' }]]);
  });

  it('order_fixed: 2.000 split 1.618 / 0.382 by largest remainder; dates tax 35.417 × 5% = 1.77085 → 1.771', () => {
    const o = price({ type: 'order_fixed', amountMinor: 2000, products: null });
    expect(o.lines.map((l) => l.discountMinor)).toEqual([1618, 382]);
    expect(totals(o)).toEqual([2000, 0, 1771, 45556]);
  });

  it('item_percentage: 10% per unit, 1.2345 → 1.235 per date in half_up, 1.234 in half_even', () => {
    const action: PromotionAction = { type: 'item_percentage', percent: '10', products: null, maxUnits: null };
    // half_up: 3.705 + 0.875 off; dates 33.330 × 5% = 1.6665 → 1.667
    expect(totals(price(action))).toEqual([4580, 0, 1667, 42872]);
    const even = priceWith({ config: { ...config, roundingMode: 'half_even' }, lines, taxRates, shipping: null }, [
      action,
    ]);
    // half_even: 3.702 + 0.875 off; dates 33.333 × 5% = 1.66665 → 1.667
    expect(totals(even)).toEqual([4577, 0, 1667, 42875]);
  });

  it('item_fixed: 0.500 off 4 oud at most', () => {
    expect(totals(price({ type: 'item_fixed', amountMinor: 500, products: [2], maxUnits: 4 }))).toEqual([
      2000, 0, 1852, 45637,
    ]);
  });

  it('buy_x_get_y: buy 3 oud, get the 4th at 50%; 7 units make one deal', () => {
    const action: PromotionAction = {
      type: 'buy_x_get_y',
      buyQuantity: 3,
      buyProducts: [2],
      getQuantity: 1,
      getProducts: [2],
      percent: '50',
      repeat: true,
    };
    expect(totals(price(action))).toEqual([625, 0, 1852, 47012]);
  });

  it('buy_x_get_y stacked: two buy a date get one at 50% on 3 dates give 6.1725 → 6.173 once, not 3.086 more', () => {
    const dateForDate: PromotionAction = {
      type: 'buy_x_get_y',
      buyQuantity: 1,
      buyProducts: [1],
      getQuantity: 1,
      getProducts: [1],
      percent: '50',
      repeat: true,
    };
    // The half-price date is given; the second promotion may not give it again. Dates 37.035 − 6.173 = 30.862,
    // tax 1.5431 → 1.543; 45.785 − 6.173 + 1.543 = 41.155
    const o = price(dateForDate, dateForDate);
    expect(o.promotions.map((p) => [p.id, p.amountMinor])).toEqual([[1, 6173]]);
    expect(totals(o)).toEqual([6173, 0, 1543, 41155]);
  });

  it('shipping_fixed: 1.000 off a taxable 2.500, taxed at 5% on the 1.500 left', () => {
    const shipping = { type: 'custom', name: 'Aramex', amountMinor: 2500 } as const;
    const o = presentPricedOrder(
      priceWith({ config, lines, taxRates, shipping }, [{ type: 'shipping_fixed', amountMinor: 1000 }]),
    );
    expect(o).toMatchObject({ shipping_fee: '2.500', shipping_discount: '1.000', discount: '1.000', total: '49.212' });
    expect(o.tax_details.at(-1)).toEqual({ tax_class: 'Shipping', tax_percentage: '5.00', tax_amount: '0.075' });
  });
});

describe('promotions in a USD store whose prices include tax', () => {
  it('takes 10% off the gross lines and the whole shipping fee, and extracts tax from what is left', () => {
    const config: PricingConfig = {
      currency: 'USD',
      roundingMode: 'half_up',
      pricesIncludeTax: true,
      shippingTaxable: true,
    };
    const lines = [
      line({ alias: 'lamp', productId: 1, unitPriceMinor: 1200, quantity: 1, taxClass: { id: 1, name: 'Standard' } }),
      line({ alias: 'tea', productId: 2, unitPriceMinor: 599, quantity: 2, taxClass: { id: 2, name: 'Reduced' } }),
    ];
    const o = priceWith(
      {
        config,
        lines,
        taxRates: new Map([
          [1, '20'],
          [2, '5'],
        ]),
        shipping: { type: 'custom', name: 'Courier', amountMinor: 499 },
      },
      [{ type: 'order_percentage', percent: '10', products: null }, { type: 'free_shipping' }],
    );
    // 10% of 23.98 = 2.40, split 1.20 / 1.20; inside 10.80 at 20% = 1.80, inside 10.78 at 5% = 0.51; shipping 0 left
    expect(presentPricedOrder(o)).toMatchObject({
      subtotal: '23.98',
      discount: '7.39',
      shipping_fee: '4.99',
      shipping_discount: '4.99',
      estimated_tax: '2.31',
      total_without_tax: '19.27',
      total: '21.58',
      tax_details: [
        { tax_class: 'Standard', tax_percentage: '20.00', tax_amount: '1.80' },
        { tax_class: 'Reduced', tax_percentage: '5.00', tax_amount: '0.51' },
      ],
    });
  });
});

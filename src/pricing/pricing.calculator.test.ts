import { describe, expect, it } from 'vitest';
import type { RoundingMode } from '../shared/money.js';
import { priceOrder } from './pricing.calculator.js';
import { presentPricedOrder } from './pricing.presenter.js';
import type { PricingConfig, PricingInput, PricingLine, TaxClassRef } from './pricing.types.js';
import { type PromoCodeRecord, promoCodePromotion } from './promo-code.promotion.js';
import type { Promotion } from './promotions/promotion.types.js';
import { orderWeightGrams, selectShippingRate, type ShippingRateCandidate } from './shipping-rate.selector.js';
import { resolveTaxRates, type TaxRateCandidate } from './tax-rate.selector.js';

const standard: TaxClassRef = { id: 1, name: 'Standard' };
const reduced: TaxClassRef = { id: 2, name: 'Reduced' };

function config(currency: string, overrides: Partial<PricingConfig> = {}): PricingConfig {
  return { currency, roundingMode: 'half_up', pricesIncludeTax: false, shippingTaxable: false, ...overrides };
}

let nextVariant = 100;
function line(fields: Partial<PricingLine> & Pick<PricingLine, 'alias' | 'unitPriceMinor'>): PricingLine {
  nextVariant += 1;
  return {
    variantId: nextVariant,
    productId: nextVariant,
    name: fields.alias,
    quantity: 1,
    weightGrams: null,
    taxClass: null,
    ...fields,
  };
}

function order(input: Partial<PricingInput> & Pick<PricingInput, 'config' | 'lines'>): PricingInput {
  return { taxRates: new Map(), shipping: null, promotions: [], customDiscount: null, ...input };
}

/** A stored promo code as the promotion pricing gets (the adapter of promo-code.promotion.ts). */
function promoCode(
  fields: Pick<PromoCodeRecord, 'code' | 'codeType' | 'value'> & Partial<PromoCodeRecord>,
  currency = 'USD',
): Promotion {
  const record: PromoCodeRecord = {
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
  return promoCodePromotion(record, { id: 1, currency });
}

describe('priceOrder in USD: a Californian order with a 10% code, two tax classes and a per-kg rate', () => {
  const address = { country: 'US', state: 'ca', city: 'Los Angeles' };
  const taxCandidates: TaxRateCandidate[] = [
    { id: 1, taxClassId: 1, country: 'US', state: null, rate: '5.0000', isActive: true },
    { id: 2, taxClassId: 1, country: 'US', state: 'CA', rate: '7.2500', isActive: true },
    { id: 3, taxClassId: 2, country: 'US', state: null, rate: '2.5000', isActive: true },
    { id: 4, taxClassId: 2, country: 'US', state: 'NY', rate: '4.0000', isActive: true },
    { id: 5, taxClassId: 1, country: 'US', state: 'CA', rate: '9.0000', isActive: false },
  ];
  const shippingCandidates: ShippingRateCandidate[] = [
    {
      id: 1,
      country: null,
      state: null,
      city: null,
      weightMinKg: '0',
      weightMaxKg: null,
      baseRateMinor: 2000,
      perKgRateMinor: 0,
    },
    {
      id: 2,
      country: 'US',
      state: null,
      city: null,
      weightMinKg: '0',
      weightMaxKg: '1',
      baseRateMinor: 500,
      perKgRateMinor: 0,
    },
    {
      id: 3,
      country: 'US',
      state: null,
      city: null,
      weightMinKg: '1',
      weightMaxKg: '5',
      baseRateMinor: 700,
      perKgRateMinor: 150,
    },
    {
      id: 4,
      country: 'US',
      state: 'CA',
      city: null,
      weightMinKg: '1',
      weightMaxKg: '10',
      baseRateMinor: 600,
      perKgRateMinor: 225,
    },
    {
      id: 5,
      country: 'US',
      state: 'CA',
      city: 'San Francisco',
      weightMinKg: '0',
      weightMaxKg: null,
      baseRateMinor: 300,
      perKgRateMinor: 0,
    },
  ];
  const lines = [
    line({ alias: 'shirt', name: 'Shirt', unitPriceMinor: 1999, quantity: 3, weightGrams: '200', taxClass: standard }),
    line({ alias: 'book', name: 'Book', unitPriceMinor: 1250, quantity: 2, weightGrams: '450.5', taxClass: reduced }),
    line({ alias: 'gift-card', name: 'Gift card', unitPriceMinor: 1000, quantity: 1 }),
  ];

  function price(roundingMode: RoundingMode) {
    const weight = orderWeightGrams(lines);
    const rate = selectShippingRate(shippingCandidates, address, weight);
    if (!rate) throw new Error('expected a shipping rate');
    return priceOrder(
      order({
        config: config('USD', { roundingMode }),
        lines,
        taxRates: resolveTaxRates(taxCandidates, address),
        shipping: { type: 'rate', methodName: 'Standard', rate },
        promotions: [promoCode({ code: 'SAVE10', codeType: 'percentage', value: '10' })],
      }),
    );
  }

  it('resolves the state rate for one class and the country rate for the other', () => {
    expect(resolveTaxRates(taxCandidates, address)).toEqual(
      new Map([
        [1, '7.25'],
        [2, '2.5'],
      ]),
    );
  });

  it('weighs 1.501 kg and ships at the Californian 1–10 kg bracket: 6.00 + 2.25 × 0.501 = 7.13', () => {
    expect(orderWeightGrams(lines)).toBe('1501');
    expect(selectShippingRate(shippingCandidates, address, '1501')?.id).toBe(4);
    expect(price('half_up').shippingFeeMinor).toBe(713);
  });

  it('gives the hand-computed figures', () => {
    // subtotal 59.97 + 25.00 + 10.00 = 94.97; 10% = 9.497 → 9.50, split 6.00 / 2.50 / 1.00;
    // tax 53.97 × 7.25% = 3.912825 → 3.91 and 22.50 × 2.5% = 0.5625 → 0.56; gift card untaxed.
    expect(presentPricedOrder(price('half_up'))).toEqual({
      currency: 'USD',
      subtotal: '94.97',
      discount: '9.50',
      discount_name: 'Promo code SAVE10 (10%)',
      promotions: [
        { id: 1, name: 'Promo code SAVE10 (10%)', code: 'SAVE10', kind: 'order_percentage', amount: '9.50' },
      ],
      shipping_fee: '7.13',
      shipping_discount: '0.00',
      shipping_name: 'Standard',
      estimated_tax: '4.47',
      total_without_tax: '92.60',
      total: '97.07',
      total_items: 6,
      lines: [
        {
          alias: 'shirt',
          product_variant_id: lines[0]?.variantId,
          name: 'Shirt',
          quantity: 3,
          unit_price: '19.99',
          subtotal: '59.97',
          discount: '6.00',
          tax_rate: '7.25',
          tax: '3.91',
          total: '57.88',
          adjustments: [{ promotion_id: 1, amount: '6.00' }],
        },
        {
          alias: 'book',
          product_variant_id: lines[1]?.variantId,
          name: 'Book',
          quantity: 2,
          unit_price: '12.50',
          subtotal: '25.00',
          discount: '2.50',
          tax_rate: '2.50',
          tax: '0.56',
          total: '23.06',
          adjustments: [{ promotion_id: 1, amount: '2.50' }],
        },
        {
          alias: 'gift-card',
          product_variant_id: lines[2]?.variantId,
          name: 'Gift card',
          quantity: 1,
          unit_price: '10.00',
          subtotal: '10.00',
          discount: '1.00',
          tax_rate: '0.00',
          tax: '0.00',
          total: '9.00',
          adjustments: [{ promotion_id: 1, amount: '1.00' }],
        },
      ],
      tax_details: [
        { tax_class: 'Standard', tax_percentage: '7.25', tax_amount: '3.91' },
        { tax_class: 'Reduced', tax_percentage: '2.50', tax_amount: '0.56' },
      ],
    });
  });

  it('gives the same figures in half_even, which has no exact half to settle here', () => {
    expect(price('half_even')).toEqual(price('half_up'));
  });
});

describe('priceOrder with fixed and product-scoped codes', () => {
  const mug = line({ alias: 'mug', productId: 10, unitPriceMinor: 800 });
  const tee = line({ alias: 'tee', productId: 20, unitPriceMinor: 2500, quantity: 2 });

  it('caps a fixed discount at the eligible subtotal of the products it is scoped to', () => {
    const priced = priceOrder(
      order({
        config: config('USD'),
        lines: [mug, tee],
        promotions: [promoCode({ code: 'FIFTEEN', codeType: 'fixed', value: '15.00', applicableProductIds: [10] })],
      }),
    );
    expect(priced.discountMinor).toBe(800);
    expect(priced.lines.map((l) => l.discountMinor)).toEqual([800, 0]);
    expect(priced.totalMinor).toBe(5000);
    expect(priced.discountName).toBe('Promo code FIFTEEN (15.00 USD off)');
  });

  it('spreads a fixed discount over all lines by the largest remainder', () => {
    // 15.00 over 8.00 and 50.00: 2.0689… → 2.07 (larger remainder) and 12.9310… → 12.93
    const priced = priceOrder(
      order({
        config: config('USD'),
        lines: [mug, tee],
        promotions: [promoCode({ code: 'FIFTEEN', codeType: 'fixed', value: '15.00' })],
      }),
    );
    expect(priced.lines.map((l) => l.discountMinor)).toEqual([207, 1293]);
    expect(priced.totalMinor).toBe(4300);
  });

  it('takes a percentage only of the lines of the products it names', () => {
    const priced = priceOrder(
      order({
        config: config('USD'),
        lines: [mug, tee],
        promotions: [
          promoCode({ code: 'TEE20', codeType: 'percentage', value: '20.0000', applicableProductIds: [20] }),
        ],
      }),
    );
    expect(priced.lines.map((l) => l.discountMinor)).toEqual([0, 1000]);
    expect(priced.discountName).toBe('Promo code TEE20 (20%)');
    expect(priced.totalMinor).toBe(4800);
  });

  it('caps a percentage above 100 at the eligible subtotal', () => {
    const priced = priceOrder(
      order({
        config: config('USD'),
        lines: [mug],
        promotions: [promoCode({ code: 'ALL', codeType: 'percentage', value: '150' })],
      }),
    );
    expect(priced.discountMinor).toBe(800);
    expect(priced.totalMinor).toBe(0);
  });

  it('spreads an admin custom discount over the whole order and caps it at the subtotal', () => {
    const lines = [line({ alias: 'a', unitPriceMinor: 1000 }), line({ alias: 'b', unitPriceMinor: 3000 })];
    const priced = priceOrder(
      order({ config: config('USD'), lines, customDiscount: { name: 'Loyalty', amountMinor: 500 } }),
    );
    expect(priced.lines.map((l) => l.discountMinor)).toEqual([125, 375]);
    expect(priced.discountName).toBe('Loyalty');
    expect(priced.promotions).toEqual([]);
    expect(
      priceOrder(order({ config: config('USD'), lines, customDiscount: { name: 'All', amountMinor: 9999 } }))
        .discountMinor,
    ).toBe(4000);
  });
});

describe('priceOrder in JPY: rounding an exact half', () => {
  const taxRates = new Map([[1, '10']]);

  it('rounds a 10% discount of ¥1225 (122.5) up to 123 in half_up and to 122 in half_even', () => {
    const lines = [line({ alias: 'tea', unitPriceMinor: 1225, taxClass: standard })];
    const promotions = [promoCode({ code: 'TEN', codeType: 'percentage', value: '10' }, 'JPY')];
    const up = priceOrder(order({ config: config('JPY'), lines, taxRates, promotions }));
    const even = priceOrder(
      order({ config: config('JPY', { roundingMode: 'half_even' }), lines, taxRates, promotions }),
    );
    // half_up: 1225 − 123 = 1102, tax 110.2 → 110; half_even: 1225 − 122 = 1103, tax 110.3 → 110
    expect(presentPricedOrder(up)).toMatchObject({
      subtotal: '1225',
      discount: '123',
      estimated_tax: '110',
      total: '1212',
    });
    expect(presentPricedOrder(even)).toMatchObject({
      subtotal: '1225',
      discount: '122',
      estimated_tax: '110',
      total: '1213',
    });
  });

  it('rounds a tax of 110.5 to 111 in half_up and to 110 in half_even', () => {
    const lines = [line({ alias: 'cup', unitPriceMinor: 1105, taxClass: standard })];
    expect(priceOrder(order({ config: config('JPY'), lines, taxRates })).totalMinor).toBe(1216);
    expect(
      priceOrder(order({ config: config('JPY', { roundingMode: 'half_even' }), lines, taxRates })).totalMinor,
    ).toBe(1215);
  });

  it('charges per kg above the bracket minimum: ¥500 + ¥120 × 0.345 kg = ¥541', () => {
    const lines = [
      line({ alias: 'rice', unitPriceMinor: 1500, quantity: 2, weightGrams: '1172.5', taxClass: standard }),
    ];
    const priced = priceOrder(
      order({
        config: config('JPY'),
        lines,
        taxRates,
        shipping: {
          type: 'rate',
          methodName: 'Yamato',
          rate: { weightMinKg: '2', weightMaxKg: '5', baseRateMinor: 500, perKgRateMinor: 120 },
        },
      }),
    );
    expect(priced.weightGrams).toBe('2345');
    expect(presentPricedOrder(priced)).toMatchObject({
      subtotal: '3000',
      shipping_fee: '541',
      shipping_name: 'Yamato',
      estimated_tax: '300',
      total_without_tax: '3541',
      total: '3841',
    });
  });
});

describe('priceOrder in KWD', () => {
  it('takes the whole shipping fee off for a free-shipping code and keeps three decimals', () => {
    const lines = [line({ alias: 'dates', unitPriceMinor: 12345, quantity: 3, taxClass: { id: 7, name: 'VAT' } })];
    const priced = priceOrder(
      order({
        config: config('KWD'),
        lines,
        taxRates: new Map([[7, '5']]),
        shipping: {
          type: 'rate',
          methodName: 'Standard',
          rate: { weightMinKg: '0', baseRateMinor: 2500, perKgRateMinor: 0 },
        },
        promotions: [promoCode({ code: 'FREESHIP', codeType: 'free_shipping', value: '0' }, 'KWD')],
      }),
    );
    // 37.035 × 5% = 1.85175 → 1.852. The fee shows before its discount, and the discount includes the shipping
    // discount (SPEC section 10): 37.035 − 2.500 + 2.500 + 1.852 = 38.887, the total a free fee gave before.
    expect(presentPricedOrder(priced)).toEqual({
      currency: 'KWD',
      subtotal: '37.035',
      discount: '2.500',
      discount_name: 'Promo code FREESHIP (free shipping)',
      promotions: [
        {
          id: 1,
          name: 'Promo code FREESHIP (free shipping)',
          code: 'FREESHIP',
          kind: 'free_shipping',
          amount: '2.500',
        },
      ],
      shipping_fee: '2.500',
      shipping_discount: '2.500',
      shipping_name: 'Standard',
      estimated_tax: '1.852',
      total_without_tax: '37.035',
      total: '38.887',
      total_items: 3,
      lines: [
        {
          alias: 'dates',
          product_variant_id: lines[0]?.variantId,
          name: 'dates',
          quantity: 3,
          unit_price: '12.345',
          subtotal: '37.035',
          discount: '0.000',
          tax_rate: '5.00',
          tax: '1.852',
          total: '38.887',
          adjustments: [],
        },
      ],
      tax_details: [{ tax_class: 'VAT', tax_percentage: '5.00', tax_amount: '1.852' }],
    });
    expect(priced.promotions.map((p) => p.code)).toEqual(['FREESHIP']);
  });

  it('takes a 12.5% code of 8.750 KWD as 1.094 (1.09375 rounded once)', () => {
    const lines = [line({ alias: 'oud', unitPriceMinor: 1250, quantity: 7 })];
    const priced = priceOrder(
      order({
        config: config('KWD'),
        lines,
        promotions: [promoCode({ code: 'EID', codeType: 'percentage', value: '12.5' }, 'KWD')],
      }),
    );
    expect(presentPricedOrder(priced)).toMatchObject({
      subtotal: '8.750',
      discount: '1.094',
      total: '7.656',
      discount_name: 'Promo code EID (12.5%)',
    });
  });
});

describe('priceOrder with prices including tax', () => {
  const lines = [
    line({ alias: 'lamp', unitPriceMinor: 1200, taxClass: standard }),
    line({ alias: 'tea', unitPriceMinor: 599, quantity: 2, taxClass: reduced }),
  ];
  const taxRates = new Map([
    [1, '20'],
    [2, '5'],
  ]);

  it('extracts the tax from the gross amounts and charges exactly the gross total', () => {
    const priced = priceOrder(
      order({
        config: config('USD', { pricesIncludeTax: true, shippingTaxable: true }),
        lines,
        taxRates,
        shipping: { type: 'custom', name: 'Courier', amountMinor: 499 },
        promotions: [promoCode({ code: 'SAVE10', codeType: 'percentage', value: '10' })],
      }),
    );
    // 23.98 gross, 10% = 2.398 → 2.40 split 1.20 / 1.20; tax inside 10.80 at 20% = 1.80,
    // inside 10.78 at 5% = 0.5133… → 0.51, inside shipping 4.99 at the highest rate 20% = 0.8316… → 0.83
    expect(presentPricedOrder(priced)).toMatchObject({
      subtotal: '23.98',
      discount: '2.40',
      shipping_fee: '4.99',
      estimated_tax: '3.14',
      total_without_tax: '23.43',
      total: '26.57',
      lines: [
        expect.objectContaining({
          alias: 'lamp',
          subtotal: '12.00',
          discount: '1.20',
          tax_rate: '20.00',
          tax: '1.80',
          total: '10.80',
        }),
        expect.objectContaining({
          alias: 'tea',
          subtotal: '11.98',
          discount: '1.20',
          tax_rate: '5.00',
          tax: '0.51',
          total: '10.78',
        }),
      ],
      tax_details: [
        { tax_class: 'Standard', tax_percentage: '20.00', tax_amount: '1.80' },
        { tax_class: 'Reduced', tax_percentage: '5.00', tax_amount: '0.51' },
        { tax_class: 'Shipping', tax_percentage: '20.00', tax_amount: '0.83' },
      ],
    });
  });

  it('rounds the tax inside 15.03 at 20% (2.505) to 2.51 in half_up and 2.50 in half_even', () => {
    const one = [line({ alias: 'vase', unitPriceMinor: 1503, taxClass: standard })];
    const up = priceOrder(order({ config: config('USD', { pricesIncludeTax: true }), lines: one, taxRates }));
    const even = priceOrder(
      order({ config: config('USD', { pricesIncludeTax: true, roundingMode: 'half_even' }), lines: one, taxRates }),
    );
    expect([up.estimatedTaxMinor, up.totalWithoutTaxMinor, up.totalMinor]).toEqual([251, 1252, 1503]);
    expect([even.estimatedTaxMinor, even.totalWithoutTaxMinor, even.totalMinor]).toEqual([250, 1253, 1503]);
  });
});

describe('priceOrder with taxable shipping on net prices', () => {
  const lines = [line({ alias: 'coat', unitPriceMinor: 10000, taxClass: standard })];
  const taxRates = new Map([[1, '8.8750']]);
  const shipping = { type: 'custom', name: 'Courier', amountMinor: 1000 } as const;

  it('taxes shipping at the highest line rate: 8.875% of 10.00 = 0.8875 → 0.89', () => {
    const priced = priceOrder(order({ config: config('USD', { shippingTaxable: true }), lines, taxRates, shipping }));
    // line tax 887.5 → 888 (also in half_even: 888 is even)
    expect(presentPricedOrder(priced)).toMatchObject({
      subtotal: '100.00',
      shipping_fee: '10.00',
      estimated_tax: '9.77',
      total_without_tax: '110.00',
      total: '119.77',
      tax_details: [
        { tax_class: 'Standard', tax_percentage: '8.875', tax_amount: '8.88' },
        { tax_class: 'Shipping', tax_percentage: '8.875', tax_amount: '0.89' },
      ],
    });
    expect(priced.shippingTaxMinor).toBe(89);
  });

  it('uses a dedicated shipping rate when one is given', () => {
    const priced = priceOrder(
      order({ config: config('USD', { shippingTaxable: true }), lines, taxRates, shipping, shippingTaxRate: '5' }),
    );
    expect([priced.shippingTaxMinor, priced.totalMinor]).toEqual([50, 11938]);
  });

  it('does not tax shipping when the store says shipping is not taxable', () => {
    const priced = priceOrder(order({ config: config('USD'), lines, taxRates, shipping }));
    expect([priced.shippingTaxMinor, priced.shippingTaxRate, priced.totalMinor]).toEqual([0, null, 11888]);
  });
});

describe('priceOrder edge cases', () => {
  it('sums lines with the same alias', () => {
    const tee = line({ alias: 'tee', unitPriceMinor: 2500 });
    const priced = priceOrder(
      order({
        config: config('USD'),
        lines: [tee, { ...tee, quantity: 2 }, line({ alias: 'mug', unitPriceMinor: 800 })],
      }),
    );
    expect(priced.lines.map((l) => [l.alias, l.quantity, l.subtotalMinor])).toEqual([
      ['tee', 3, 7500],
      ['mug', 1, 800],
    ]);
    expect(priced.totalItems).toBe(4);
  });

  it('refuses one alias with two prices, and quantities that are not positive whole numbers', () => {
    const tee = line({ alias: 'tee', unitPriceMinor: 2500 });
    expect(() => priceOrder(order({ config: config('USD'), lines: [tee, { ...tee, unitPriceMinor: 2400 }] }))).toThrow(
      RangeError,
    );
    expect(() => priceOrder(order({ config: config('USD'), lines: [{ ...tee, quantity: 0 }] }))).toThrow(RangeError);
    expect(() => priceOrder(order({ config: config('USD'), lines: [{ ...tee, quantity: 1.5 }] }))).toThrow(RangeError);
  });

  it('taxes a line with a class but no rate for the address at 0', () => {
    const priced = priceOrder(
      order({
        config: config('USD'),
        lines: [line({ alias: 'x', unitPriceMinor: 999, taxClass: reduced })],
        taxRates: new Map([[1, '20']]),
      }),
    );
    expect([priced.lines[0]?.taxRate, priced.estimatedTaxMinor, priced.taxDetails]).toEqual(['0', 0, []]);
  });

  it('prices an order without address: no tax, no shipping', () => {
    const priced = presentPricedOrder(
      priceOrder(
        order({ config: config('USD'), lines: [line({ alias: 'x', unitPriceMinor: 999, taxClass: standard })] }),
      ),
    );
    expect(priced).toMatchObject({
      shipping_fee: '0.00',
      shipping_name: null,
      discount_name: null,
      estimated_tax: '0.00',
      total: '9.99',
    });
  });

  it('refuses currencies Intl does not know and tax rates with more than four decimals', () => {
    const lines = [line({ alias: 'x', unitPriceMinor: 999, taxClass: standard })];
    expect(() => priceOrder(order({ config: config('XXY'), lines }))).toThrow(RangeError);
    expect(() => priceOrder(order({ config: config('USD'), lines, taxRates: new Map([[1, '7.12345']]) }))).toThrow();
  });
});

describe('priceOrder with default tax rates and a shipping tax class', () => {
  const shippingClass = { id: 4, name: 'Shipping' };
  const zeroRated = { id: 6, name: 'Zero-rated' };
  const address = { country: 'US', state: 'CA' };
  // Standard has its own Californian rate; Reduced has none, so the Californian default applies to it.
  const candidates: TaxRateCandidate[] = [
    { id: 1, taxClassId: 1, country: 'US', state: 'CA', rate: '7.25', isActive: true },
    { id: 2, taxClassId: null, country: 'US', state: 'CA', rate: '8', isActive: true },
    { id: 3, taxClassId: null, country: 'US', state: null, rate: '6', isActive: true },
    { id: 4, taxClassId: zeroRated.id, country: 'US', state: null, rate: '0', isActive: true },
  ];
  const lines = [
    line({ alias: 'tee', unitPriceMinor: 2500, quantity: 2, taxClass: standard }),
    line({ alias: 'mug', unitPriceMinor: 1450, taxClass: reduced }),
    line({ alias: 'gift-card', unitPriceMinor: 1000 }),
  ];
  const usps = { weightMinKg: '0', baseRateMinor: 490, perKgRateMinor: 0 };
  function price(shippingClassId: number | null) {
    const classIds = [1, 2, ...(shippingClassId === null ? [] : [shippingClassId])];
    const taxRates = resolveTaxRates(candidates, address, classIds);
    return priceOrder(
      order({
        config: config('USD', { shippingTaxable: true }),
        lines,
        taxRates,
        shipping: { type: 'rate', methodName: 'USPS', rate: usps, taxClassId: shippingClassId },
      }),
    );
  }

  it('taxes a line whose class has no rate at the default rate and leaves a line with no class untaxed', () => {
    const priced = price(null);
    // tee 50.00 × 7.25% = 3.625 → 3.63; mug 14.50 × 8% = 1.16; gift card: no class, 0
    expect(priced.lines.map((l) => [l.alias, l.taxRate, l.taxMinor])).toEqual([
      ['tee', '7.25', 363],
      ['mug', '8', 116],
      ['gift-card', '0', 0],
    ]);
  });

  it("taxes shipping at its class's own rate: 4.90 × 7.25% = 0.35525 → 0.36", () => {
    const priced = presentPricedOrder(price(standard.id));
    // 74.50 + 4.90 + 3.63 + 1.16 + 0.36 = 84.55
    expect(priced).toMatchObject({ subtotal: '74.50', shipping_fee: '4.90', estimated_tax: '5.15', total: '84.55' });
    expect(priced.tax_details.at(-1)).toEqual({ tax_class: 'Shipping', tax_percentage: '7.25', tax_amount: '0.36' });
  });

  it('taxes shipping whose class has no rate of its own at the default rate: 4.90 × 8% = 0.392 → 0.39', () => {
    expect(price(shippingClass.id).shippingTaxRate).toBe('8');
    expect(price(shippingClass.id).shippingTaxMinor).toBe(39);
  });

  it("without a class, taxes shipping at the highest line rate, as before (8% here, the mug's default rate)", () => {
    expect([price(null).shippingTaxRate, price(null).shippingTaxMinor]).toEqual(['8', 39]);
  });

  it('falls back to the highest line rate when the class has no rate and there is no default', () => {
    const priced = priceOrder(
      order({
        config: config('USD', { shippingTaxable: true }),
        lines,
        taxRates: new Map([[1, '7.25']]),
        shipping: { type: 'rate', methodName: 'USPS', rate: usps, taxClassId: shippingClass.id },
      }),
    );
    expect([priced.shippingTaxRate, priced.shippingTaxMinor]).toEqual(['7.25', 36]);
  });

  it("leaves shipping untaxed when its class's rate there is 0, and when shipping is not taxable", () => {
    expect([price(zeroRated.id).shippingTaxRate, price(zeroRated.id).shippingTaxMinor]).toEqual([null, 0]);
    const taxRates = resolveTaxRates(candidates, address, [1, 2]);
    const untaxable = priceOrder(
      order({
        config: config('USD'),
        lines,
        taxRates,
        shipping: { type: 'rate', methodName: 'USPS', rate: usps, taxClassId: 1 },
      }),
    );
    expect([untaxable.shippingTaxRate, untaxable.shippingTaxMinor]).toEqual([null, 0]);
  });

  it("in JPY: ¥1,980 tea at the 10% default, ¥770 shipping at its class's 8% (61.6 → ¥62)", () => {
    const jp: TaxRateCandidate[] = [
      { id: 1, taxClassId: null, country: 'JP', state: null, rate: '10', isActive: true },
      { id: 2, taxClassId: 1, country: 'JP', state: null, rate: '8', isActive: true },
    ];
    const priced = priceOrder(
      order({
        config: config('JPY', { shippingTaxable: true }),
        lines: [line({ alias: 'tea', unitPriceMinor: 1980, taxClass: reduced })],
        taxRates: resolveTaxRates(jp, { country: 'JP' }, [reduced.id, 1]),
        shipping: {
          type: 'rate',
          methodName: 'Yamato',
          taxClassId: 1,
          rate: { weightMinKg: '0', baseRateMinor: 770, perKgRateMinor: 0 },
        },
      }),
    );
    // 1980 + 198 + 770 + 62 = 3010
    expect(presentPricedOrder(priced)).toMatchObject({
      subtotal: '1980',
      shipping_fee: '770',
      estimated_tax: '260',
      total: '3010',
    });
  });

  it('with prices including tax, extracts the default rate from a line and the class rate from shipping', () => {
    const priced = priceOrder(
      order({
        config: config('USD', { shippingTaxable: true, pricesIncludeTax: true }),
        lines: [line({ alias: 'mug', unitPriceMinor: 2180, taxClass: reduced })],
        taxRates: new Map([
          [reduced.id, '9'],
          [shippingClass.id, '20'],
        ]),
        shipping: {
          type: 'rate',
          methodName: 'USPS',
          rate: { weightMinKg: '0', baseRateMinor: 1090, perKgRateMinor: 0 },
          taxClassId: shippingClass.id,
        },
      }),
    );
    // mug 21.80 × 9/109 = 1.80; shipping 10.90 × 20/120 = 1.8166… → 1.82; the total stays 21.80 + 10.90
    const figures = [priced.lines[0]?.taxMinor, priced.shippingTaxMinor, priced.estimatedTaxMinor, priced.totalMinor];
    expect(figures).toEqual([180, 182, 362, 3270]);
    expect(priced.totalWithoutTaxMinor).toBe(2908);
  });
});

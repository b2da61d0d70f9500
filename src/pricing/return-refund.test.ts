import { describe, expect, it } from 'vitest';
import { priceOrder } from './pricing.calculator.js';
import {
  type LineReturn,
  refundForReturnedUnits,
  type ReturnRefundInput,
  type StoredLineFigures,
} from './return-refund.js';
import { testPromotion } from './promotions/promotion.testing.js';

/**
 * What returned units refund, figures by hand in minor units (USD cents, JPY yen, KWD fils). A line's discount and
 * tax are split over its units by largest remainder, the minor units left over going to units 1, 2, …; returns take
 * the units in that order.
 */

/** A stored line from its quantity, unit price, discount and tax; subtotal and total follow as placement has them. */
function stored(
  figures: { quantity: number; unitPrice: number; discount: number; tax: number },
  options: { pricesIncludeTax: boolean } = { pricesIncludeTax: false },
): StoredLineFigures {
  const subtotal = figures.unitPrice * figures.quantity;
  const paid = subtotal - figures.discount;
  return { ...figures, subtotal, total: options.pricesIncludeTax ? paid : paid + figures.tax };
}

/** The refund of one return, failing the test when it is refused. */
function refund(input: Partial<ReturnRefundInput> & { lines: LineReturn[] }) {
  const result = refundForReturnedUnits({ pricesIncludeTax: false, shipping: null, ...input });
  if (!result.ok) throw new Error(result.detail);
  return result.refund;
}

const figures = (r: { goodsMinor: number; discountMinor: number; taxMinor: number; amountMinor: number }) => [
  r.goodsMinor,
  r.discountMinor,
  r.taxMinor,
  r.amountMinor,
];

describe('refundForReturnedUnits: a returned unit refunds what it was paid', () => {
  // 3 × 10.00 = 30.00, 1.00 off the line, tax 8.875 % of 29.00 = 2.57375 → 2.57; total 31.57.
  // Discount 100 / 3 = 33 r 1: units 34, 33, 33. Tax 257 / 3 = 85 r 2: units 86, 86, 85.
  const usd = stored({ quantity: 3, unitPrice: 1000, discount: 100, tax: 257 });

  it('refunds one unit its share of the line discount and of the tax on top, on net prices (USD)', () => {
    // Unit 1: 10.00 − 0.34 + 0.86 = 10.52.
    const r = refund({ lines: [{ line: usd, quantity: 1, returnedBefore: 0 }] });
    expect(figures(r.lines[0]!)).toEqual([1000, 34, 86, 1052]);
    expect(figures(r)).toEqual([1000, 34, 86, 1052]);
    expect(r.shipping).toBeNull();
  });

  it('refunds the rest of a line in a second return so that both add up to the line exactly (USD)', () => {
    // Units 2 and 3: 20.00 − (0.33 + 0.33) + (0.86 + 0.85) = 20.00 − 0.66 + 1.71 = 21.05. 10.52 + 21.05 = 31.57.
    const r = refund({ lines: [{ line: usd, quantity: 2, returnedBefore: 1 }] });
    expect(figures(r.lines[0]!)).toEqual([2000, 66, 171, 2105]);
    expect(1052 + 2105).toBe(usd.total);
  });

  it('adds partial returns of 2, 1 and 4 units up to the line figures, then refuses an eighth unit', () => {
    // 7 × 3.33 = 23.31, 1.00 off, tax 10 % of 22.31 = 2.231 → 2.23; total 24.54.
    // Discount 100 / 7 = 14 r 2: units 1–2 get 15, units 3–7 get 14. Tax 223 / 7 = 31 r 6: units 1–6 32, unit 7 31.
    const line = stored({ quantity: 7, unitPrice: 333, discount: 100, tax: 223 });
    // Units 1–2: 6.66 − 0.30 + 0.64 = 7.00.
    const first = refund({ lines: [{ line, quantity: 2, returnedBefore: 0 }] });
    // Unit 3: 3.33 − 0.14 + 0.32 = 3.51.
    const second = refund({ lines: [{ line, quantity: 1, returnedBefore: 2 }] });
    // Units 4–7: 13.32 − 0.56 + (0.32 × 3 + 0.31) = 13.32 − 0.56 + 1.27 = 14.03.
    const third = refund({ lines: [{ line, quantity: 4, returnedBefore: 3 }] });
    expect([first, second, third].map(figures)).toEqual([
      [666, 30, 64, 700],
      [333, 14, 32, 351],
      [1332, 56, 127, 1403],
    ]);
    // 7.00 + 3.51 + 14.03 = 24.54; discounts 0.30 + 0.14 + 0.56 = 1.00; tax 0.64 + 0.32 + 1.27 = 2.23.
    expect(700 + 351 + 1403).toBe(line.total);
    expect([30 + 14 + 56, 64 + 32 + 127]).toEqual([line.discount, line.tax]);

    const fourth = refundForReturnedUnits({
      pricesIncludeTax: false,
      shipping: null,
      lines: [{ line, quantity: 1, returnedBefore: 7 }],
    });
    expect(fourth).toEqual({
      ok: false,
      reason: 'more_than_bought',
      detail: 'line 1: 1 units to return and 7 returned before, but 7 were bought (0 left to return)',
      lines: [{ index: 0, bought: 7, returnedBefore: 7, returning: 1 }],
    });
  });

  it('refunds the gross price less the discount share on prices including tax, the tax inside it (USD)', () => {
    // Tea 2 × 5.99 = 11.98 gross, 1.20 off (10 % of the order, its share), tax 5 % inside 10.78: 10.78 × 5 / 105 =
    // 0.5133 → 0.51; total 10.78 (tax included). Discount 120 / 2 = 60 each; tax 51 / 2 = 25 r 1: units 26, 25.
    const tea = stored({ quantity: 2, unitPrice: 599, discount: 120, tax: 51 }, { pricesIncludeTax: true });
    // Unit 1: 5.99 − 0.60 = 5.39, of which 0.26 is tax — not 5.39 + 0.26 = 5.65, the tax counted twice.
    const first = refund({ pricesIncludeTax: true, lines: [{ line: tea, quantity: 1, returnedBefore: 0 }] });
    expect(figures(first)).toEqual([599, 60, 26, 539]);
    // Unit 2: 5.39, 0.25 of it tax. 5.39 + 5.39 = 10.78.
    const second = refund({ pricesIncludeTax: true, lines: [{ line: tea, quantity: 1, returnedBefore: 1 }] });
    expect(figures(second)).toEqual([599, 60, 25, 539]);
    expect(539 + 539).toBe(tea.total);
  });

  it('splits yen without any fraction (JPY)', () => {
    // Bento 3 × ¥980 = ¥2940, 12.5 % off each unit: 122.5 → ¥123, ¥369 in all; tax 8 % of 2571 = 205.68 → ¥206;
    // total ¥2777. Discount 369 / 3 = 123 each; tax 206 / 3 = 68 r 2: units 69, 69, 68.
    const bento = stored({ quantity: 3, unitPrice: 980, discount: 369, tax: 206 });
    // Units 1–2: 1960 − 246 + 138 = ¥1852.
    const two = refund({ lines: [{ line: bento, quantity: 2, returnedBefore: 0 }] });
    expect(figures(two)).toEqual([1960, 246, 138, 1852]);
    // Unit 3: 980 − 123 + 68 = ¥925. 1852 + 925 = ¥2777.
    const last = refund({ lines: [{ line: bento, quantity: 1, returnedBefore: 2 }] });
    expect(figures(last)).toEqual([980, 123, 68, 925]);
    expect(1852 + 925).toBe(bento.total);
  });

  it('splits fils the same way (KWD, three decimals)', () => {
    // 4 × 12.345 = 49.380, 5.001 off the line, tax 5 % of 44.379 = 2.21895 → 2.219; total 46.598.
    // Discount 5001 / 4 = 1250 r 1: units 1.251, 1.250, 1.250, 1.250. Tax 2219 / 4 = 554 r 3: 0.555 × 3, then 0.554.
    const line = stored({ quantity: 4, unitPrice: 12_345, discount: 5001, tax: 2219 });
    // Unit 1: 12.345 − 1.251 + 0.555 = 11.649.
    const first = refund({ lines: [{ line, quantity: 1, returnedBefore: 0 }] });
    expect(figures(first)).toEqual([12_345, 1251, 555, 11_649]);
    // Units 2–4: 37.035 − 3.750 + (0.555 + 0.555 + 0.554 = 1.664) = 34.949. 11.649 + 34.949 = 46.598.
    const rest = refund({ lines: [{ line, quantity: 3, returnedBefore: 1 }] });
    expect(figures(rest)).toEqual([37_035, 3750, 1664, 34_949]);
    expect(11_649 + 34_949).toBe(line.total);
  });

  it('spreads a buy-get discount evenly: a returned unit is neither the discounted one nor a full-price one', () => {
    // Tee 3 × 25.00 at 10 %, "buy 2 get 1 at 50 %": 12.50 off the line; tax 10 % of 62.50 = 6.25; total 68.75.
    const priced = priceOrder({
      config: { currency: 'USD', roundingMode: 'half_up', pricesIncludeTax: false, shippingTaxable: false },
      lines: [
        {
          alias: 'tee',
          variantId: 1,
          productId: 1,
          name: 'Tee',
          quantity: 3,
          unitPriceMinor: 2500,
          weightGrams: null,
          taxClass: { id: 1, name: 'Standard' },
        },
      ],
      taxRates: new Map([[1, '10']]),
      shipping: null,
      promotions: [
        testPromotion({
          id: 1,
          action: {
            type: 'buy_x_get_y',
            buyQuantity: 2,
            buyProducts: null,
            getQuantity: 1,
            getProducts: null,
            percent: '50',
            repeat: true,
          },
        }),
      ],
      customDiscount: null,
    });
    const p = priced.lines[0]!;
    const tee: StoredLineFigures = {
      quantity: p.quantity,
      unitPrice: p.unitPriceMinor,
      subtotal: p.subtotalMinor,
      discount: p.discountMinor,
      tax: p.taxMinor,
      total: p.totalMinor,
    };
    expect(tee).toEqual({ quantity: 3, unitPrice: 2500, subtotal: 7500, discount: 1250, tax: 625, total: 6875 });
    // Discount 1250 / 3 = 416 r 2: units 4.17, 4.17, 4.16. Tax 625 / 3 = 208 r 1: units 2.09, 2.08, 2.08.
    // Unit 1: 25.00 − 4.17 + 2.09 = 22.92; not 27.50 (a full-price unit) nor 13.75 (the half-price one).
    const one = refund({ lines: [{ line: tee, quantity: 1, returnedBefore: 0 }] });
    expect(figures(one)).toEqual([2500, 417, 209, 2292]);
    // Units 2–3: 50.00 − 8.33 + 4.16 = 45.83. 22.92 + 45.83 = 68.75.
    const rest = refund({ lines: [{ line: tee, quantity: 2, returnedBefore: 1 }] });
    expect(figures(rest)).toEqual([5000, 833, 416, 4583]);
    expect(2292 + 4583).toBe(tee.total);
  });
});

describe('refundForReturnedUnits: shipping', () => {
  const mug = stored({ quantity: 2, unitPrice: 1200, discount: 0, tax: 120 });
  // Shipping 10.00, 50 % off (5.00), taxed 10 % on the 5.00 left: 0.50 on top. Paid for shipping: 5.50.
  const shipping = { shippingFee: 1000, shippingDiscount: 500, shippingTax: 50 };
  const nothing = { feeMinor: 0, discountMinor: 0, taxMinor: 0 };

  it('refunds the shipping the customer paid once, and nothing of it when asked again', () => {
    // First mug and shipping: (12.00 + 0.60) + (10.00 − 5.00 + 0.50) = 12.60 + 5.50 = 18.10.
    const first = refund({
      lines: [{ line: mug, quantity: 1, returnedBefore: 0 }],
      shipping: { ...shipping, refundedBefore: nothing },
    });
    expect(first.shipping).toEqual({ feeMinor: 1000, discountMinor: 500, taxMinor: 50, amountMinor: 550 });
    // goods 12.00 − discount 5.00 + shipping fee 10.00 + tax (0.60 + 0.50) = 18.10.
    expect([first.goodsMinor, first.discountMinor, first.shippingFeeMinor, first.taxMinor]).toEqual([
      1200, 500, 1000, 110,
    ]);
    expect(first.amountMinor).toBe(1810);
    // Second mug, shipping asked again with the first refund's shipping figures given as refunded: 12.60 only.
    const second = refund({
      lines: [{ line: mug, quantity: 1, returnedBefore: 1 }],
      shipping: { ...shipping, refundedBefore: first.shipping! },
    });
    expect(second.shipping).toEqual({ feeMinor: 0, discountMinor: 0, taxMinor: 0, amountMinor: 0 });
    expect(second.amountMinor).toBe(1260);
  });

  it('refunds gross shipping as charged, its tax inside, on prices including tax', () => {
    // Shipping 4.99 gross at 20 %: tax inside 4.99 × 20 / 120 = 0.8316 → 0.83. Refund 4.99, not 5.82.
    const r = refund({
      pricesIncludeTax: true,
      lines: [],
      shipping: { shippingFee: 499, shippingDiscount: 0, shippingTax: 83, refundedBefore: nothing },
    });
    expect(r.shipping).toEqual({ feeMinor: 499, discountMinor: 0, taxMinor: 83, amountMinor: 499 });
    expect(r.amountMinor).toBe(499);
  });

  it('counts free shipping as refunded once: its fee and discount go back with the first return only', () => {
    // Shipping 10.00, free-shipping promotion 10.00 off, so 0 paid and 0 tax. An amount refunded (0) could not tell
    // the first return from the second; the figures refunded before do.
    const free = { shippingFee: 1000, shippingDiscount: 1000, shippingTax: 0 };
    const first = refund({ lines: [], shipping: { ...free, refundedBefore: nothing } });
    expect(first.shipping).toEqual({ feeMinor: 1000, discountMinor: 1000, taxMinor: 0, amountMinor: 0 });
    const again = refund({ lines: [], shipping: { ...free, refundedBefore: first.shipping! } });
    expect(again.shipping).toEqual({ feeMinor: 0, discountMinor: 0, taxMinor: 0, amountMinor: 0 });
    expect([again.shippingFeeMinor, again.discountMinor]).toEqual([0, 0]);
  });

  it('gives back the whole order, SPEC 6 figures and all, when every unit and the shipping return', () => {
    // docs/pricing.md's worked example (SAVE10, net prices, shipping not taxable): total 97.07.
    const shirt = stored({ quantity: 3, unitPrice: 1999, discount: 600, tax: 391 }); // 57.88
    const book = stored({ quantity: 2, unitPrice: 1250, discount: 250, tax: 56 }); // 23.06
    const giftCard = stored({ quantity: 1, unitPrice: 1000, discount: 100, tax: 0 }); // 9.00
    const r = refund({
      lines: [shirt, book, giftCard].map((line) => ({ line, quantity: line.quantity, returnedBefore: 0 })),
      shipping: { shippingFee: 713, shippingDiscount: 0, shippingTax: 0, refundedBefore: nothing },
    });
    // subtotal 94.97 − discount 9.50 + shipping 7.13 + tax 4.47 = 97.07.
    expect([r.goodsMinor, r.discountMinor, r.shippingFeeMinor, r.taxMinor, r.amountMinor]).toEqual([
      9497, 950, 713, 447, 9707,
    ]);
    expect(r.lines.map((l) => l.amountMinor)).toEqual([5788, 2306, 900]);
  });

  it("docs/pricing.md's returns example: a shirt, then two shirts and the shipping, then the rest", () => {
    const shirt = stored({ quantity: 3, unitPrice: 1999, discount: 600, tax: 391 });
    const book = stored({ quantity: 2, unitPrice: 1250, discount: 250, tax: 56 });
    const giftCard = stored({ quantity: 1, unitPrice: 1000, discount: 100, tax: 0 });
    const shipping = { shippingFee: 713, shippingDiscount: 0, shippingTax: 0 };
    // Shirt discount 600 / 3 = 200 each; tax 391 / 3 = 130 r 1: unit 1 1.31, units 2–3 1.30.
    // 1. One shirt: 19.99 − 2.00 + 1.31 = 19.30.
    const first = refund({ lines: [{ line: shirt, quantity: 1, returnedBefore: 0 }] });
    expect(figures(first)).toEqual([1999, 200, 131, 1930]);
    // 2. Two shirts and the shipping: 39.98 − 4.00 + 2.60 = 38.58, + 7.13 = 45.71.
    const second = refund({
      lines: [{ line: shirt, quantity: 2, returnedBefore: 1 }],
      shipping: { ...shipping, refundedBefore: nothing },
    });
    expect([figures(second.lines[0]!), second.amountMinor]).toEqual([[3998, 400, 260, 3858], 4571]);
    // 3. The book and the gift card, shipping asked again: 23.06 + 9.00 = 32.06, shipping already back.
    const third = refund({
      lines: [book, giftCard].map((line) => ({ line, quantity: line.quantity, returnedBefore: 0 })),
      shipping: { ...shipping, refundedBefore: second.shipping! },
    });
    expect(third.amountMinor).toBe(3206);
    // 19.30 + 45.71 + 32.06 = 97.07, the order's total.
    expect(1930 + 4571 + 3206).toBe(9707);
  });
});

describe('refundForReturnedUnits: figures no order stores', () => {
  it('throws on a line whose total is not subtotal − discount + tax', () => {
    const line = { ...stored({ quantity: 2, unitPrice: 500, discount: 0, tax: 100 }), total: 1000 };
    expect(() => refund({ lines: [{ line, quantity: 1, returnedBefore: 0 }] })).toThrow(RangeError);
  });

  it('throws on a fractional or negative number of units', () => {
    const line = stored({ quantity: 2, unitPrice: 500, discount: 0, tax: 0 });
    expect(() => refund({ lines: [{ line, quantity: 0.5, returnedBefore: 0 }] })).toThrow(RangeError);
    expect(() => refund({ lines: [{ line, quantity: 1, returnedBefore: -1 }] })).toThrow(RangeError);
  });

  it('throws on more shipping refunded before than the order charged', () => {
    const refundedBefore = { feeMinor: 501, discountMinor: 0, taxMinor: 0 };
    const shipping = { shippingFee: 500, shippingDiscount: 0, shippingTax: 0, refundedBefore };
    expect(() => refund({ lines: [], shipping })).toThrow(RangeError);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { priceOrder } from '../pricing/pricing.calculator.js';
import { presentPricedOrder } from '../pricing/pricing.presenter.js';
import { randomOrders } from '../pricing/pricing.testing.js';
import { currencyFormat, formatDecimal, parseDecimal, ROUNDING_MODES, sumMinor } from '../shared/money.js';
import {
  type CheckoutMarket,
  offersPaymentPlugin,
  offersShippingMethod,
  shippingRateIn,
  totalInStoreCurrency,
  unitPriceIn,
} from './market-checkout.js';
import { priceRoundingOf } from './market-price.js';

/** A market converting from USD at `rate` with a rule (step and ending in major units), as marketOf builds it. */
function market(currency: string, rate: string, rule: { step: string | null; ending?: string } = { step: null }) {
  return {
    isDefault: false,
    currency,
    exchangeRate: rate,
    pricing: {
      currency,
      conversion: {
        conversion: { from: 'USD', to: currency, rate: parseDecimal(rate), mode: 'half_up' as const },
        rule: priceRoundingOf({ step: rule.step, ending: rule.ending ?? '0', direction: 'nearest' }, currency),
      },
    },
    paymentPlugins: [],
    shippingMethodIds: [],
  } satisfies CheckoutMarket;
}

const store: CheckoutMarket = {
  isDefault: true,
  currency: 'USD',
  exchangeRate: '1',
  pricing: { currency: 'USD', conversion: null },
  paymentPlugins: [],
  shippingMethodIds: [],
};
const jp = market('JPY', '151.37', { step: '100' });
const kw = market('KWD', '0.3075');
const eu = market('EUR', '0.92', { step: '1', ending: '0.99' });

describe('a unit price in a market', () => {
  it('is the stored price in the default market, whatever explicit prices say', () => {
    expect(unitPriceIn(store, { price: 2500, explicitPrices: { EUR: { amount: 2300, compareAt: null } } })).toBe(2500);
  });

  it('is the explicit price in the market’s currency when there is one (never rounded by the rule)', () => {
    expect(unitPriceIn(eu, { price: 2500, explicitPrices: { EUR: { amount: 2300, compareAt: 2700 } } })).toBe(2300);
  });

  it('is converted and rounded otherwise: ¥3,800 and KD 7.688 for 25.00 USD, EUR 22.99 with a .99 ending', () => {
    expect(unitPriceIn(jp, { price: 2500, explicitPrices: { EUR: { amount: 2300, compareAt: null } } })).toBe(3800);
    expect(unitPriceIn(kw, { price: 2500 })).toBe(7688);
    expect(unitPriceIn(eu, { price: 2500, explicitPrices: null })).toBe(2299);
  });
});

describe('a shipping rate in a market', () => {
  it('converts base and per-kg amounts at the rate to the currency’s precision, without the price rule', () => {
    const rate = { id: 1, baseRateMinor: 500, perKgRateMinor: 50 };
    // 5 × 151.37 = 756.85 → ¥757; 0.50 × 151.37 = 75.685 → ¥76; 5 × 0.3075 = 1.5375 → KD 1.538.
    expect(shippingRateIn(jp, rate)).toEqual({ id: 1, baseRateMinor: 757, perKgRateMinor: 76 });
    expect(shippingRateIn(kw, rate)).toMatchObject({ baseRateMinor: 1538 });
    expect(shippingRateIn(store, rate)).toBe(rate);
    expect(shippingRateIn(jp, undefined)).toBeUndefined();
  });
});

describe('what a market offers', () => {
  it('offers everything with empty lists, and only what it lists otherwise', () => {
    expect(offersShippingMethod(store, 7)).toBe(true);
    expect(offersShippingMethod({ ...jp, shippingMethodIds: [1] }, 7)).toBe(false);
    expect(offersShippingMethod({ ...jp, shippingMethodIds: [1, 7] }, 7)).toBe(true);
    expect(offersPaymentPlugin({ paymentPlugins: [] }, 'stripe')).toBe(true);
    expect(offersPaymentPlugin({ paymentPlugins: ['sandbox'] }, 'stripe')).toBe(false);
  });
});

describe('an order’s total in the store currency', () => {
  it('is the total itself in the default market, and the total back at the rate otherwise', () => {
    expect(totalInStoreCurrency(store, 6768)).toBe(6768);
    // ¥9,557 / 151.37 = 63.1367 USD → 63.14; KD 9.226 / 0.3075 = 30.0033 USD → 30.00; EUR 23.00 / 0.92 = 25.00.
    expect(totalInStoreCurrency(jp, 9557)).toBe(6314);
    expect(totalInStoreCurrency(kw, 9226)).toBe(3000);
    expect(totalInStoreCurrency(eu, 2300)).toBe(2500);
  });
});

/** A market of a 0-, 2- or 3-decimal currency, any rate up to 2,000 with 2 to 6 decimals, with or without a rule. */
const randomMarket = fc
  .record({
    currency: fc.constantFrom('JPY', 'EUR', 'KWD', 'BHD', 'GBP'),
    rateUnits: fc.integer({ min: 1, max: 200_000 }),
    rateScale: fc.integer({ min: 2, max: 6 }),
    ruled: fc.boolean(),
  })
  .map(({ currency, rateUnits, rateScale, ruled }) => {
    const exponent = currencyFormat(currency).exponent;
    const step = ruled ? formatDecimal({ units: 10n ** BigInt(exponent), scale: exponent }) : null;
    return market(currency, formatDecimal({ units: BigInt(rateUnits), scale: rateScale }), { step });
  });

describe('orders priced in a market (property)', () => {
  it('keep Σ lines + shipping + tax − discount = total to the minor unit, in every currency', () => {
    fc.assert(
      fc.property(randomOrders, randomMarket, fc.constantFrom(...ROUNDING_MODES), (input, m, mode) => {
        const lines = input.lines.map((line) => ({
          ...line,
          unitPriceMinor: unitPriceIn(m, { price: line.unitPriceMinor }),
        }));
        const shipping =
          input.shipping?.type === 'rate'
            ? { ...input.shipping, rate: shippingRateIn(m, input.shipping.rate) ?? input.shipping.rate }
            : input.shipping;
        const o = priceOrder({
          ...input,
          lines,
          shipping,
          config: { ...input.config, currency: m.currency, roundingMode: mode },
        });
        const net = !input.config.pricesIncludeTax;
        const shippingAfterDiscount = o.shippingFeeMinor - o.shippingDiscountMinor;
        expect(
          sumMinor(o.lines.map((l) => l.totalMinor)) + shippingAfterDiscount + (net ? o.shippingTaxMinor : 0),
        ).toBe(o.totalMinor);
        const base = o.subtotalMinor - o.discountMinor + o.shippingFeeMinor;
        expect(o.totalMinor).toBe(net ? base + o.estimatedTaxMinor : base);
        const wire = presentPricedOrder(o);
        expect(wire.currency).toBe(m.currency);
        expect(currencyFormat(m.currency).parse(wire.total)).toBe(o.totalMinor);
      }),
      { numRuns: 500 },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { currencyExponent } from '../../../shared/currency.js';
import { GatewayError, type Money, UnchargeableAmountError } from '../../payment-plugin.js';
import { fromStripeAmount, stripeUnitOf, THREE_DECIMAL, toStripeAmount } from './stripe-amounts.js';

const money = (amountMinor: number, currency: string, exponent = currencyExponent(currency)): Money => ({
  amountMinor,
  currency,
  exponent,
});

describe("Stripe's units per currency (docs.stripe.com/currencies)", () => {
  it('counts two-decimal currencies in cents, zero-decimal ones in units, three-decimal ones in steps of 10', () => {
    expect(stripeUnitOf('USD')).toEqual({ exponent: 2, step: 1 });
    expect(stripeUnitOf('EUR')).toEqual({ exponent: 2, step: 1 });
    for (const zero of ['JPY', 'KRW', 'VND', 'CLP', 'UGX', 'XOF'])
      expect(stripeUnitOf(zero)).toEqual({ exponent: 0, step: 1 });
    for (const three of ['KWD', 'BHD', 'JOD', 'OMR', 'TND'])
      expect(stripeUnitOf(three)).toEqual({ exponent: 3, step: 10 });
  });

  it('keeps the special cases: ISK two-decimal in whole krónur (step 100); HUF and TWD charged in two decimals', () => {
    expect(stripeUnitOf('ISK')).toEqual({ exponent: 2, step: 100 });
    expect(stripeUnitOf('HUF')).toEqual({ exponent: 2, step: 1 });
    expect(stripeUnitOf('TWD')).toEqual({ exponent: 2, step: 1 });
  });
});

describe('toStripeAmount', () => {
  it('sends two- and zero-decimal currencies as they are: 24.68 USD is 2468, ¥3,800 is 3800', () => {
    expect(toStripeAmount(money(2468, 'USD'))).toBe(2468);
    expect(toStripeAmount(money(3800, 'JPY'))).toBe(3800);
    expect(toStripeAmount(money(1_000_000, 'KRW'))).toBe(1_000_000);
  });

  it('sends three-decimal currencies only when the last digit is 0, never rounding', () => {
    expect(toStripeAmount(money(7690, 'KWD'))).toBe(7690);
    expect(toStripeAmount(money(12340, 'KWD'))).toBe(12340);
    expect(() => toStripeAmount(money(7688, 'KWD'))).toThrow(UnchargeableAmountError);
    expect(() => toStripeAmount(money(7688, 'KWD'))).toThrow(
      /Stripe accepts KWD amounts only in multiples of 0\.010 \(the last of the three decimals must be 0\); 7\.688 KWD/,
    );
    expect(() => toStripeAmount(money(1001, 'BHD'))).toThrow(/multiples of 0\.010.*1\.001 BHD/);
  });

  it('refuses with an error that is a GatewayError, not retryable', () => {
    try {
      toStripeAmount(money(5, 'OMR'));
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(GatewayError);
      expect((err as GatewayError).retryable).toBe(false);
    }
  });

  it('scales currencies Stripe keeps two-decimal where the service counts whole units (ISK, HUF)', () => {
    expect(toStripeAmount(money(500, 'ISK'))).toBe(50_000);
    expect(toStripeAmount(money(1200, 'HUF'))).toBe(120_000);
  });

  it('refuses an amount with more decimals than Stripe has, and one too large to be exact', () => {
    // A three-digit amount of a currency Stripe counts in cents (as if the service had 3 digits for it).
    expect(() => toStripeAmount(money(12345, 'USD', 3))).toThrow(/steps of 0\.010; 12\.345 USD/);
    expect(toStripeAmount(money(12340, 'USD', 3))).toBe(1234);
    expect(() => toStripeAmount(money(Number.MAX_SAFE_INTEGER, 'ISK'))).toThrow(/too large for Stripe/);
  });
});

describe('fromStripeAmount', () => {
  it("reads Stripe amounts back in the service's minor units and upper-case currency", () => {
    expect(fromStripeAmount(2468, 'usd')).toEqual(money(2468, 'USD'));
    expect(fromStripeAmount(3800, 'jpy')).toEqual(money(3800, 'JPY'));
    expect(fromStripeAmount(7690, 'kwd')).toEqual(money(7690, 'KWD'));
    expect(fromStripeAmount(50_000, 'isk')).toEqual(money(500, 'ISK'));
  });

  it('reads nothing it cannot read exactly: fractional ISK, unknown currencies, missing amounts', () => {
    expect(fromStripeAmount(50_050, 'isk')).toBeUndefined();
    expect(fromStripeAmount(100, 'zzz')).toBeUndefined();
    expect(fromStripeAmount(null, 'usd')).toBeUndefined();
    expect(fromStripeAmount(1.5, 'usd')).toBeUndefined();
  });
});

describe('properties', () => {
  const currencies = ['USD', 'EUR', 'JPY', 'KRW', 'VND', 'KWD', 'BHD', 'JOD', 'OMR', 'TND', 'ISK', 'HUF', 'TWD', 'UGX'];
  const amounts = fc.record({
    currency: fc.constantFrom(...currencies),
    amountMinor: fc.integer({ min: 0, max: 10 ** 12 }),
  });

  it('sends an amount exactly when its step allows, and reading it back gives the same money', () => {
    fc.assert(
      fc.property(amounts, ({ currency, amountMinor }) => {
        const sent = money(amountMinor, currency);
        const tenFils = THREE_DECIMAL.has(currency);
        if (tenFils && amountMinor % 10 !== 0) {
          expect(() => toStripeAmount(sent)).toThrow(UnchargeableAmountError);
          return;
        }
        const stripe = toStripeAmount(sent);
        expect(stripe % stripeUnitOf(currency).step).toBe(0);
        expect(fromStripeAmount(stripe, currency.toLowerCase())).toEqual(sent);
      }),
    );
  });

  it('never changes the value: Stripe units times 10^-exponent equal the minor units times 10^-exponent', () => {
    fc.assert(
      fc.property(amounts, ({ currency, amountMinor }) => {
        const sent = money(amountMinor - (amountMinor % 10), currency);
        const stripe = BigInt(toStripeAmount(sent));
        const { exponent } = stripeUnitOf(currency);
        // a/10^e1 == b/10^e2  ⟺  a·10^e2 == b·10^e1
        expect(stripe * 10n ** BigInt(sent.exponent)).toBe(BigInt(sent.amountMinor) * 10n ** BigInt(exponent));
      }),
    );
  });
});

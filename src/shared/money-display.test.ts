import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_MINOR_UNITS } from './money.js';
import { moneyDisplay } from './money-display.js';

const NBSP = '\u00a0';

describe('moneyDisplay', () => {
  it('writes yen without decimals, with the yen sign and thousands: ¥8,860', () => {
    expect(moneyDisplay('JPY')(8860)).toBe('¥8,860');
    expect(moneyDisplay('JPY')(0)).toBe('¥0');
  });

  it('writes dinars with their three decimals and the code, English having no sign for them: KWD 7.688', () => {
    expect(moneyDisplay('KWD')(7688)).toBe(`KWD${NBSP}7.688`);
    expect(moneyDisplay('KWD')(16_630)).toBe(`KWD${NBSP}16.630`);
    expect(moneyDisplay('KWD')(1_234_567)).toBe(`KWD${NBSP}1,234.567`);
  });

  it('writes euros and dollars with two decimals: €23.00, $1,234.50; German writes 23,00 €', () => {
    expect(moneyDisplay('EUR')(2300)).toBe('€23.00');
    expect(moneyDisplay('USD')(123_450)).toBe('$1,234.50');
    expect(moneyDisplay('EUR', 'de')(2300)).toBe(`23,00${NBSP}€`);
    expect(moneyDisplay('CAD')(2300)).toBe('CA$23.00');
  });

  it('keeps the service’s precision where Intl would not (ISK has 0 decimals in ISO 4217 and Intl alike)', () => {
    expect(moneyDisplay('ISK')(1500)).toBe(`ISK${NBSP}1,500`);
  });

  it('keeps every digit of the largest amount, which a float would round', () => {
    expect(moneyDisplay('USD')(Number.MAX_SAFE_INTEGER)).toBe('$90,071,992,547,409.91');
    expect(moneyDisplay('JPY')(Number.MAX_SAFE_INTEGER)).toBe('¥9,007,199,254,740,991');
    expect(moneyDisplay('USD')(MAX_MINOR_UNITS - 1)).toBe('$9,999,999,999,999.99');
  });

  it('shows exactly the digits of the amount, for any amount and a currency of 0, 2 or 3 decimals', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.constantFrom('JPY', 'USD', 'KWD'),
        (minor, c) => {
          const digits = moneyDisplay(c)(minor).replace(/\D/g, '');
          expect(BigInt(digits)).toBe(BigInt(minor));
        },
      ),
    );
  });
});

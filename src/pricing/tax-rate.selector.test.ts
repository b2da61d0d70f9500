import { describe, expect, it } from 'vitest';
import { canonicalRate, resolveTaxRates, selectTaxRate, type TaxRateCandidate } from './tax-rate.selector.js';

function rate(id: number, fields: Partial<TaxRateCandidate>): TaxRateCandidate {
  return { id, taxClassId: 1, country: 'US', state: null, rate: '5', isActive: true, ...fields };
}

describe('selectTaxRate', () => {
  const rates = [rate(1, { rate: '5' }), rate(2, { state: 'CA', rate: '7.25' }), rate(3, { state: 'NY', rate: '4' })];

  it('prefers the rate for the country and state', () => {
    expect(selectTaxRate(rates, { country: 'US', state: 'CA' })?.id).toBe(2);
  });

  it('falls back to the country-wide rate for another state or no state', () => {
    expect(selectTaxRate(rates, { country: 'US', state: 'TX' })?.id).toBe(1);
    expect(selectTaxRate(rates, { country: 'US', state: '' })?.id).toBe(1);
    expect(selectTaxRate(rates, { country: 'US' })?.id).toBe(1);
  });

  it('never applies a state rate without a country-wide rate to another state', () => {
    expect(selectTaxRate([rate(2, { state: 'CA' })], { country: 'US', state: 'NV' })).toBeNull();
  });

  it('ignores inactive rates and other countries', () => {
    expect(selectTaxRate([rate(1, { isActive: false }), rate(2, { country: 'CA' })], { country: 'US' })).toBeNull();
  });

  it('matches country and state whatever their case and surrounding blanks', () => {
    expect(selectTaxRate(rates, { country: 'us', state: ' ca ' })?.id).toBe(2);
  });

  it('settles two equally specific rates on the lower id', () => {
    expect(selectTaxRate([rate(9, { state: 'CA' }), rate(4, { state: 'CA' })], { country: 'US', state: 'CA' })?.id).toBe(4);
  });

  it('refuses rates of several classes at once', () => {
    expect(() => selectTaxRate([rate(1, {}), rate(2, { taxClassId: 2 })], { country: 'US' })).toThrow(RangeError);
  });
});

describe('resolveTaxRates', () => {
  it('gives each class its own rate for the address and leaves out classes without one', () => {
    const rates = [
      rate(1, { taxClassId: 1, rate: '5.0000' }), rate(2, { taxClassId: 1, state: 'CA', rate: '7.2500' }),
      rate(3, { taxClassId: 2, rate: '2.5000' }), rate(4, { taxClassId: 3, country: 'DE', rate: '19' }),
    ];
    expect(resolveTaxRates(rates, { country: 'US', state: 'CA' })).toEqual(new Map([[1, '7.25'], [2, '2.5']]));
  });
});

describe('canonicalRate', () => {
  it('drops trailing zeros and refuses negative rates or more than four decimals', () => {
    expect(canonicalRate('15.0000')).toBe('15');
    expect(canonicalRate('0.0000')).toBe('0');
    expect(() => canonicalRate('-1')).toThrow(RangeError);
    expect(() => canonicalRate('1.00001')).toThrow();
  });
});

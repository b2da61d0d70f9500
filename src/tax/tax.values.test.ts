import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors.js';
import { newTaxRateValues, parseRate, taxClassName, taxRateValues } from './tax.values.js';

describe('a tax rate as sent, turned into stored values', () => {
  it.each([
    ['7.2500', '7.25'],
    ['15.0000', '15'],
    ['100', '100'],
    ['0', '0'],
  ])('writes the percent %s as %s, never rounded', (sent, stored) => {
    expect(parseRate(sent)).toBe(stored);
  });

  it.each(['100.0001', '7.12345', '-1', '7,25', ''])('refuses %j as a percent', (sent) => {
    expect(() => parseRate(sent)).toThrow(DomainError);
  });

  it('names the country and the rate together when both are refused', () => {
    try {
      taxRateValues({ country: 'XX', rate: '120' });
      expect.unreachable();
    } catch (err) {
      expect((err as DomainError).errors?.map((e) => e.field)).toEqual(['country', 'rate']);
    }
  });

  it('fills a new rate: country upper-cased, the whole country when no state, active by default', () => {
    expect(newTaxRateValues({ tax_class_id: null, country: 'de', rate: '19.00' })).toEqual({
      taxClassId: null,
      country: 'DE',
      state: '',
      rate: '19',
      isActive: true,
    });
  });

  it('trims a class name and refuses a blank one', () => {
    expect(taxClassName(' Books ')).toBe('Books');
    expect(() => taxClassName('  ')).toThrow(DomainError);
  });
});

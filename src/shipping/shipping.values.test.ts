import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors.js';
import { currencyFormat } from '../shared/money.js';
import { newShippingMethodValues, newShippingRateValues, shippingRateValues } from './shipping.values.js';

const usd = currencyFormat('USD');

/** The field errors of the 422 `run` throws. */
function refusal(run: () => unknown) {
  try {
    run();
  } catch (err) {
    if (err instanceof DomainError && err.code === 'validation_error') return err.errors;
    throw err;
  }
  throw new Error('expected a 422');
}

describe('a shipping rate as sent, turned into stored values', () => {
  it('stores money in minor units, an upper-cased country and a blank place as any', () => {
    const rate = newShippingRateValues(
      { shipping_method_id: 1, country: ' fr ', weight_min_kg: '0', base_rate: '12.90', per_kg_rate: '1.50' },
      usd,
    );
    expect(rate).toMatchObject({ country: 'FR', state: '', city: '', baseRate: 1290, perKgRate: 150 });
    expect(newShippingRateValues({ shipping_method_id: 1, weight_min_kg: '0', base_rate: '5' }, usd).country).toBe('');
  });

  it('names every refused field in one answer', () => {
    const errors = refusal(() =>
      shippingRateValues({ country: 'XX', base_rate: '1.005', per_kg_rate: '-1', weight_min_kg: '1.2345' }, usd),
    );
    expect(errors?.map((e) => e.field)).toEqual(['country', 'weight_min_kg', 'base_rate', 'per_kg_rate']);
  });

  it('refuses an empty weight bracket', () => {
    const errors = refusal(() =>
      newShippingRateValues({ shipping_method_id: 1, weight_min_kg: '5', weight_max_kg: '5', base_rate: '1.00' }, usd),
    );
    expect(errors).toEqual([{ field: 'weight_max_kg', message: 'must be greater than weight_min_kg (5)' }]);
  });

  it('leaves absent fields absent, so a change touches only what it names', () => {
    expect(shippingRateValues({ base_rate: '2.00' }, usd)).toEqual({ baseRate: 200 });
  });
});

describe('a shipping method as sent', () => {
  it('is trimmed and refused when its name is blank', () => {
    expect(newShippingMethodValues({ name: ' Express ', description: ' 1 to 2 days ' })).toEqual({
      name: 'Express',
      description: '1 to 2 days',
      isActive: true,
      taxClassId: null,
    });
    expect(refusal(() => newShippingMethodValues({ name: '   ' }))).toEqual([
      { field: 'name', message: 'must not be blank' },
    ]);
  });
});

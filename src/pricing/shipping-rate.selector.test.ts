import { describe, expect, it } from 'vitest';
import {
  bracketHoldsWeight,
  orderWeightGrams,
  selectShippingRate,
  shippingFeeForWeight,
  type ShippingRateCandidate,
} from './shipping-rate.selector.js';

function rate(id: number, fields: Partial<ShippingRateCandidate>): ShippingRateCandidate {
  return {
    id,
    country: null,
    state: null,
    city: null,
    weightMinKg: '0',
    weightMaxKg: null,
    baseRateMinor: 1000,
    perKgRateMinor: 0,
    ...fields,
  };
}

describe('selectShippingRate', () => {
  const rates = [
    rate(1, {}),
    rate(2, { country: 'US' }),
    rate(3, { country: 'US', state: 'CA' }),
    rate(4, { country: 'US', state: 'CA', city: 'San Francisco' }),
  ];

  it('prefers city over state over country over anywhere', () => {
    expect(selectShippingRate(rates, { country: 'US', state: 'CA', city: 'san francisco' }, '0')?.id).toBe(4);
    expect(selectShippingRate(rates, { country: 'US', state: 'CA', city: 'Oakland' }, '0')?.id).toBe(3);
    expect(selectShippingRate(rates, { country: 'US', state: 'NY', city: 'Albany' }, '0')?.id).toBe(2);
    expect(selectShippingRate(rates, { country: 'FR', city: 'Paris' }, '0')?.id).toBe(1);
  });

  it('skips a more specific rate whose bracket does not hold the weight', () => {
    const withBracket = [rate(1, { country: 'US' }), rate(2, { country: 'US', state: 'CA', weightMaxKg: '2' })];
    expect(selectShippingRate(withBracket, { country: 'US', state: 'CA' }, '1999.9')?.id).toBe(2);
    expect(selectShippingRate(withBracket, { country: 'US', state: 'CA' }, '2000.1')?.id).toBe(1);
  });

  it('returns null when no rate matches the place and weight', () => {
    expect(selectShippingRate([rate(1, { country: 'US', weightMaxKg: '5' })], { country: 'US' }, '5001')).toBeNull();
    expect(selectShippingRate([rate(1, { country: 'US' })], { country: 'CA' }, '0')).toBeNull();
    expect(selectShippingRate([], { country: 'US' }, '0')).toBeNull();
  });

  it('ships a parcel exactly on a bracket boundary at the "up to" bracket', () => {
    const brackets = [rate(1, { weightMinKg: '1', weightMaxKg: '5' }), rate(2, { weightMinKg: '0', weightMaxKg: '1' })];
    expect(selectShippingRate(brackets, { country: 'US' }, '1000')?.id).toBe(2);
    expect(selectShippingRate(brackets, { country: 'US' }, '1000.001')?.id).toBe(1);
  });
});

describe('bracketHoldsWeight', () => {
  it('includes both ends and treats a missing maximum as unbounded', () => {
    expect(bracketHoldsWeight(rate(1, { weightMinKg: '1.5', weightMaxKg: '3' }), '1500')).toBe(true);
    expect(bracketHoldsWeight(rate(1, { weightMinKg: '1.5', weightMaxKg: '3' }), '3000')).toBe(true);
    expect(bracketHoldsWeight(rate(1, { weightMinKg: '1.5', weightMaxKg: '3' }), '1499.999')).toBe(false);
    expect(bracketHoldsWeight(rate(1, { weightMinKg: '1.5' }), '99999999')).toBe(true);
  });
});

describe('orderWeightGrams', () => {
  it('adds quantity × unit weight exactly and counts weightless lines as 0', () => {
    expect(
      orderWeightGrams([
        { quantity: 3, weightGrams: '0.1' },
        { quantity: 7, weightGrams: '0.2' },
        { quantity: 2, weightGrams: null },
      ]),
    ).toBe('1.7');
    expect(orderWeightGrams([])).toBe('0');
  });
});

describe('shippingFeeForWeight', () => {
  const bracket = { weightMinKg: '2', weightMaxKg: '10', baseRateMinor: 600, perKgRateMinor: 225 };

  it('charges the base rate plus the per-kg rate for the kilograms above the minimum, rounded once', () => {
    expect(shippingFeeForWeight(bracket, '2000', 'half_up')).toBe(600);
    expect(shippingFeeForWeight(bracket, '3501', 'half_up')).toBe(938); // 600 + 225 × 1.501 = 937.725
    expect(shippingFeeForWeight(bracket, '2002', 'half_up')).toBe(600); // 225 × 0.002 = 0.45 → 0
    expect(shippingFeeForWeight(bracket, '2003', 'half_up')).toBe(601); // 225 × 0.003 = 0.675 → 1
  });

  it('settles a half cent of per-kg charge by the rounding mode', () => {
    const perKg = { weightMinKg: '0', baseRateMinor: 0, perKgRateMinor: 5 };
    expect(shippingFeeForWeight(perKg, '500', 'half_up')).toBe(3); // 2.5
    expect(shippingFeeForWeight(perKg, '500', 'half_even')).toBe(2);
  });
});

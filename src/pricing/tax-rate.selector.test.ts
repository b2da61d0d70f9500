import fc from 'fast-check';
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
    expect(
      selectTaxRate([rate(9, { state: 'CA' }), rate(4, { state: 'CA' })], { country: 'US', state: 'CA' })?.id,
    ).toBe(4);
  });

  it('refuses rates of several classes at once', () => {
    expect(() => selectTaxRate([rate(1, {}), rate(2, { taxClassId: 2 })], { country: 'US' })).toThrow(RangeError);
  });
});

describe('resolveTaxRates', () => {
  it('gives each class its own rate for the address and leaves out classes without one', () => {
    const rates = [
      rate(1, { taxClassId: 1, rate: '5.0000' }),
      rate(2, { taxClassId: 1, state: 'CA', rate: '7.2500' }),
      rate(3, { taxClassId: 2, rate: '2.5000' }),
      rate(4, { taxClassId: 3, country: 'DE', rate: '19' }),
    ];
    expect(resolveTaxRates(rates, { country: 'US', state: 'CA' })).toEqual(
      new Map([
        [1, '7.25'],
        [2, '2.5'],
      ]),
    );
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

describe('resolveTaxRates with default rates (tax class null)', () => {
  // Class 1 has its own Californian rate, class 2 its own country-wide rate, class 3 none at all.
  const rates = [
    rate(1, { taxClassId: null, rate: '6' }),
    rate(2, { taxClassId: null, state: 'CA', rate: '8' }),
    rate(3, { taxClassId: null, state: 'NY', rate: '9', isActive: false }),
    rate(4, { taxClassId: 1, state: 'CA', rate: '7.25' }),
    rate(5, { taxClassId: 2, rate: '2.5' }),
  ];
  const all = [1, 2, 3];

  it('gives a class without a rate of its own the default rate, the state one before the country-wide one', () => {
    expect(resolveTaxRates(rates, { country: 'US', state: 'CA' }, all).get(3)).toBe('8');
    expect(resolveTaxRates(rates, { country: 'US', state: 'TX' }, all).get(3)).toBe('6');
  });

  it("lets a class's own rate win over the default, even its country-wide rate over a state default", () => {
    const resolved = resolveTaxRates(rates, { country: 'US', state: 'CA' }, all);
    expect(resolved).toEqual(
      new Map([
        [1, '7.25'],
        [2, '2.5'],
        [3, '8'],
      ]),
    );
  });

  it("falls back to the default where a class's only rate is for another state", () => {
    const resolved = resolveTaxRates(rates, { country: 'US', state: 'TX' }, all);
    expect(resolved).toEqual(
      new Map([
        [1, '6'],
        [2, '2.5'],
        [3, '6'],
      ]),
    );
  });

  it('ignores an inactive default rate', () => {
    expect(resolveTaxRates(rates, { country: 'US', state: 'NY' }, [3]).get(3)).toBe('6');
  });

  it('leaves out classes with neither their own rate nor a default one for the address', () => {
    expect(resolveTaxRates(rates, { country: 'DE' }, all)).toEqual(new Map());
    const classRatesOnly = rates.filter((r) => r.taxClassId !== null);
    expect(resolveTaxRates(classRatesOnly, { country: 'US', state: 'TX' }, all)).toEqual(new Map([[2, '2.5']]));
  });

  it('resolves only the classes asked for, so lines with no class (never asked) stay untaxed', () => {
    expect(resolveTaxRates(rates, { country: 'US', state: 'CA' }, [])).toEqual(new Map());
    // Without the list, only the classes the rates name: a default rate alone resolves nothing.
    expect(resolveTaxRates(rates, { country: 'US', state: 'CA' })).toEqual(
      new Map([
        [1, '7.25'],
        [2, '2.5'],
      ]),
    );
  });

  it('chooses the rates of the example in docs/pricing.md', () => {
    const example = [
      rate(1, { taxClassId: 1, state: 'CA', rate: '7.25' }),
      rate(2, { taxClassId: 2, rate: '2.5' }),
      rate(3, { taxClassId: 3, state: 'NY', rate: '4' }),
      rate(4, { taxClassId: null, rate: '6' }),
      rate(5, { taxClassId: null, state: 'CA', rate: '8' }),
    ];
    const losAngeles = resolveTaxRates(example, { country: 'US', state: 'CA' }, all);
    const texas = resolveTaxRates(example, { country: 'US', state: 'TX' }, all);
    expect(losAngeles).toEqual(
      new Map([
        [1, '7.25'],
        [2, '2.5'],
        [3, '8'],
      ]),
    );
    expect(texas).toEqual(
      new Map([
        [1, '6'],
        [2, '2.5'],
        [3, '6'],
      ]),
    );
  });

  it('settles two equally specific default rates on the lower id', () => {
    const twins = [rate(9, { taxClassId: null, rate: '3' }), rate(7, { taxClassId: null, rate: '4' })];
    expect(resolveTaxRates(twins, { country: 'US' }, [1]).get(1)).toBe('4');
  });
});

describe('resolveTaxRates on random rates', () => {
  const candidates = fc.uniqueArray(
    fc.record({
      id: fc.integer({ min: 1, max: 60 }),
      taxClassId: fc.constantFrom(null, 1, 2, 3),
      country: fc.constantFrom('US', 'us', 'CA'),
      state: fc.constantFrom(null, '', 'CA', ' ca', 'NY'),
      rate: fc.integer({ min: 0, max: 1_000_000 }).map((units) => (units / 10_000).toFixed(4)),
      isActive: fc.boolean(),
    }),
    { selector: (r) => r.id, maxLength: 12 },
  );
  const address = fc.record({
    country: fc.constantFrom('US', 'CA', 'DE'),
    state: fc.constantFrom(undefined, 'CA', 'NY', 'TX'),
  });
  const classIds = [1, 2, 3, 4];
  const own = (rates: TaxRateCandidate[], classId: number) => rates.filter((r) => r.taxClassId === classId);

  it("never lets a default rate displace a class's own rate; every class without one gets the same default", () => {
    fc.assert(
      fc.property(candidates, address, (rates, place) => {
        const withDefaults = resolveTaxRates(rates, place, classIds);
        const withoutDefaults = resolveTaxRates(
          rates.filter((r) => r.taxClassId !== null),
          place,
          classIds,
        );
        const defaults = resolveTaxRates(
          rates.filter((r) => r.taxClassId === null),
          place,
          classIds,
        );
        for (const classId of classIds) {
          const hasOwn = selectTaxRate(own(rates, classId), place) !== null;
          expect(withDefaults.get(classId)).toBe(hasOwn ? withoutDefaults.get(classId) : defaults.get(classId));
        }
        // Class 4 never has rates of its own: it shows the default alone.
        expect(withDefaults.get(4)).toBe(defaults.get(1));
      }),
      { numRuns: 500 },
    );
  });

  it('does not depend on the order the rates come in', () => {
    fc.assert(
      fc.property(candidates, address, (rates, place) => {
        expect(resolveTaxRates([...rates].reverse(), place, classIds)).toEqual(resolveTaxRates(rates, place, classIds));
      }),
      { numRuns: 300 },
    );
  });
});

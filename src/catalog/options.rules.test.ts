import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors.js';
import {
  checkCombination,
  checkOptions,
  checkRenames,
  combinationKey,
  combinationsOf,
  defaultOptions,
  missingCombinations,
  type OptionEdit,
  type OptionList,
  planOptionChange,
  skuFromPattern,
  type VariantCombination,
  variantName,
} from './options.rules.js';

const hoodie: OptionList[] = [
  { name: 'Size', values: ['S', 'M', 'L'] },
  { name: 'Colour', values: ['Black', 'Grey'] },
];

/** Up to 3 options of up to 4 distinct values (names and values distinct in any case, as checkOptions wants). */
const optionLists = fc
  .uniqueArray(fc.constantFrom('Size', 'Colour', 'Material', 'Fit'), { minLength: 1, maxLength: 3 })
  .chain((names) =>
    fc.tuple(
      ...names.map((name) =>
        fc
          .uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { minLength: 1, maxLength: 4 })
          .map((values) => ({ name, values })),
      ),
    ),
  );

function fieldsOf(work: () => unknown): string[] {
  try {
    work();
  } catch (err) {
    if (err instanceof DomainError) return (err.errors ?? []).map((e) => e.field);
    throw err;
  }
  return [];
}

describe('combinationsOf', () => {
  it('gives exactly the cartesian product of the values, each combination once, first option slowest', () => {
    expect(combinationsOf(hoodie).map((c) => variantName(hoodie, c))).toEqual([
      'S / Black',
      'S / Grey',
      'M / Black',
      'M / Grey',
      'L / Black',
      'L / Grey',
    ]);
    fc.assert(
      fc.property(optionLists, (options) => {
        const combinations = combinationsOf(options);
        const expected = options.reduce((n, o) => n * o.values.length, 1);
        expect(combinations).toHaveLength(expected);
        expect(new Set(combinations.map((c) => combinationKey(options, c))).size).toBe(expected);
        for (const c of combinations) {
          expect(Object.keys(c).sort()).toEqual(options.map((o) => o.name).sort());
          for (const o of options) expect(o.values).toContain(c[o.name]);
        }
      }),
    );
  });
});

describe('missingCombinations', () => {
  it('with the variants held, gives back exactly the cartesian product and no combination twice', () => {
    fc.assert(
      fc.property(
        optionLists.chain((options) =>
          fc.tuple(fc.constant(options), fc.subarray(combinationsOf(options)), fc.subarray(combinationsOf(options))),
        ),
        ([options, held, archived]) => {
          const variants: VariantCombination[] = [
            ...held.map((values, i) => ({ id: i + 1, name: '', archived: false, values })),
            ...archived.map((values, i) => ({ id: 1000 + i, name: '', archived: true, values })),
          ];
          const missing = missingCombinations(options, variants);
          const keys = [...variants.map((v) => v.values), ...missing].map((c) => combinationKey(options, c));
          const all = combinationsOf(options).map((c) => combinationKey(options, c));
          expect(new Set(keys)).toEqual(new Set(all));
          // Nothing made twice: no missing combination is held, active or archived.
          const heldKeys = new Set(variants.map((v) => combinationKey(options, v.values)));
          for (const c of missing) expect(heldKeys.has(combinationKey(options, c))).toBe(false);
          expect(new Set(missing.map((c) => combinationKey(options, c))).size).toBe(missing.length);
        },
      ),
    );
  });
});

describe('checkOptions', () => {
  it('trims names and values and keeps their order', () => {
    expect(checkOptions([{ name: ' Size ', values: [' S', 'M '] }])).toEqual([{ name: 'Size', values: ['S', 'M'] }]);
  });

  it('names the field of each mistake: duplicate names and values in any case, blank or missing values', () => {
    expect(
      fieldsOf(() =>
        checkOptions([
          { name: 'Size', values: ['S', 's', ' '] },
          { name: 'size', values: [] },
          { name: ' ', values: ['x'] },
        ]),
      ),
    ).toEqual([
      'options[0].values[1]',
      'options[0].values[2]',
      'options[1].name',
      'options[1].values',
      'options[2].name',
    ]);
  });

  it('holds a product to 3 options, 100 values an option and 100 combinations', () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`);
    expect(fieldsOf(() => checkOptions([]))).toEqual(['options']);
    expect(fieldsOf(() => checkOptions(['a', 'b', 'c', 'd'].map((name) => ({ name, values: ['x'] }))))).toEqual([
      'options',
    ]);
    expect(fieldsOf(() => checkOptions([{ name: 'Size', values: values(101) }]))).toContain('options[0].values');
    expect(fieldsOf(() => checkOptions([{ name: 'Size', values: values(100) }]))).toEqual([]);
    expect(
      fieldsOf(() =>
        checkOptions([
          { name: 'Size', values: values(11) },
          { name: 'Colour', values: values(10) },
        ]),
      ),
    ).toEqual(['options']);
  });
});

describe('planOptionChange', () => {
  const variant = (id: number, values: Record<string, string>, archived = false): VariantCombination => ({
    id,
    name: `v${id}`,
    archived,
    values,
  });

  it('gives a new option’s first value to every active variant and names them after their combination', () => {
    const changes = planOptionChange(hoodie, [variant(1, { Size: 'S' }), variant(2, { Size: 'M' })]);
    expect(changes).toEqual([
      { id: 1, values: { Size: 'S', Colour: 'Black' }, name: 'S / Black', archive: false },
      { id: 2, values: { Size: 'M', Colour: 'Black' }, name: 'M / Black', archive: false },
    ]);
  });

  it('archives an active variant whose value is removed and leaves unchanged ones as they are', () => {
    const changes = planOptionChange(
      [{ name: 'Size', values: ['S', 'M'] }, hoodie[1] as OptionList],
      [variant(1, { Size: 'S', Colour: 'Grey' }), variant(2, { Size: 'L', Colour: 'Grey' })],
    );
    expect(changes).toEqual([
      { id: 1, values: { Size: 'S', Colour: 'Grey' }, archive: false },
      { id: 2, values: { Colour: 'Grey' }, archive: true },
    ]);
  });

  it('refuses a change that leaves two active variants with one combination (archived ones do not count)', () => {
    const variants = [
      variant(1, { Size: 'S', Colour: 'Black' }),
      variant(2, { Size: 'S', Colour: 'Grey' }),
      variant(3, { Size: 'M', Colour: 'Grey' }, true),
    ];
    expect(() => planOptionChange([{ name: 'Size', values: ['S', 'M'] }], variants)).toThrow(
      expect.objectContaining({ code: 'variant_combination_taken', extra: { variants: [1, 2] } }),
    );
    expect(planOptionChange([{ name: 'Colour', values: ['Black', 'Grey'] }], variants)).toHaveLength(3);
  });

  it('keeps every variant through renames of options and values, names following a renamed value only', () => {
    const variants = [variant(1, { Size: 'S', Colour: 'Black' }), variant(2, { Size: 'M', Colour: 'Grey' })];
    const renamed: OptionEdit[] = [
      { name: 'Taille', renamedFrom: 'Size', values: ['S', 'Medium', 'L'], valuesRenamedFrom: { Medium: 'M' } },
      { name: 'Colour', values: ['Grey', 'Black'], valuesRenamedFrom: { Grey: 'Black', Black: 'Grey' } },
    ];
    expect(planOptionChange(renamed, variants)).toEqual([
      { id: 1, values: { Taille: 'S', Colour: 'Grey' }, name: 'S / Grey', archive: false },
      { id: 2, values: { Taille: 'Medium', Colour: 'Black' }, name: 'Medium / Black', archive: false },
    ]);
    expect(planOptionChange([{ ...hoodie[0]!, name: 'Taille', renamedFrom: 'Size' }, hoodie[1]!], variants)).toEqual([
      { id: 1, values: { Taille: 'S', Colour: 'Black' }, archive: false },
      { id: 2, values: { Taille: 'M', Colour: 'Grey' }, archive: false },
    ]);
  });

  it('refuses renames of what the product has not, of a value still given, or of one thing twice', () => {
    const fields = (next: Parameters<typeof checkRenames>[1]) => {
      try {
        checkRenames(hoodie, next);
      } catch (err) {
        return (err as DomainError).errors?.map((e) => e.field);
      }
      return [];
    };
    expect(fields([{ name: 'Taille', renamedFrom: 'Fit', values: ['S'] }])).toEqual(['options[0].renamed_from']);
    expect(fields([hoodie[0]!, { name: 'Taille', renamedFrom: 'Size', values: ['S'] }])).toEqual([
      'options[1].renamed_from',
    ]);
    expect(
      fields([{ name: 'Size', values: ['S', 'Medium', 'Big'], valuesRenamedFrom: { Medium: 'S', Big: 'M', XL: 'L' } }]),
    ).toEqual(['options[0].values_renamed_from.Medium', 'options[0].values_renamed_from.XL']);
    expect(fields([{ name: 'Size', values: ['Small', 'Tiny'], valuesRenamedFrom: { Small: 'S', Tiny: 'S' } }])).toEqual(
      ['options[0].values_renamed_from.Tiny'],
    );
  });

  it('never leaves two active variants with one combination, whatever the options', () => {
    fc.assert(
      fc.property(
        optionLists.chain((before) =>
          fc.tuple(fc.subarray(combinationsOf(before), { minLength: 1 }), optionLists, fc.boolean()),
        ),
        ([held, next, archiveFirst]) => {
          const variants = held.map((values, i) => variant(i + 1, values, archiveFirst && i === 0));
          let changes: ReturnType<typeof planOptionChange>;
          try {
            changes = planOptionChange(next, variants);
          } catch (err) {
            expect(err).toMatchObject({ code: 'variant_combination_taken' });
            return;
          }
          const active = changes.filter((c) => !c.archive && !variants.find((v) => v.id === c.id)?.archived);
          const keys = active.map((c) => combinationKey(next, c.values));
          expect(new Set(keys).size).toBe(keys.length);
          for (const c of active) expect(Object.keys(c.values)).toHaveLength(next.length);
        },
      ),
    );
  });
});

describe('defaultOptions', () => {
  it('gives a single variant the value "Default" and several their names, a name given twice made distinct', () => {
    expect(defaultOptions([{ id: 7, name: 'Large' }])).toEqual({
      option: { name: 'Title', values: ['Default'] },
      values: new Map([[7, 'Default']]),
    });
    const several = defaultOptions([
      { id: 1, name: 'Black' },
      { id: 2, name: 'White' },
      { id: 3, name: 'Black' },
    ]);
    expect(several.option).toEqual({ name: 'Title', values: ['Black #1', 'White', 'Black #3'] });
  });
});

describe('checkCombination', () => {
  it('wants every option named once with one of its values', () => {
    expect(checkCombination(hoodie, { Size: 'M', Colour: 'Grey' })).toEqual({ Size: 'M', Colour: 'Grey' });
    expect(fieldsOf(() => checkCombination(hoodie, { Size: 'XL', Fit: 'Slim' }))).toEqual([
      'options.Size',
      'options.Fit',
      'options.Colour',
    ]);
  });
});

describe('skuFromPattern', () => {
  it('puts each named value in, upper-cased, and refuses a name that is no option', () => {
    expect(skuFromPattern('HOODIE-{Size}-{Colour}', hoodie, { Size: 'M', Colour: 'Dark grey' })).toBe(
      'HOODIE-M-DARK-GREY',
    );
    expect(fieldsOf(() => skuFromPattern('H-{Fit}', hoodie, { Size: 'M', Colour: 'Grey' }))).toEqual(['sku_pattern']);
  });
});

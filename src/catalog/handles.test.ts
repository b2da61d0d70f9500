import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HANDLE_MAX_LENGTH, handlesInOrder, isHandle, slugify, uniqueHandle } from './handles.js';

describe('the handle a name suggests', () => {
  it('lower-cases words and joins them with single hyphens', () => {
    expect(slugify('Linen Shirt')).toBe('linen-shirt');
    expect(slugify('  Mug -- 350 ml!! ')).toBe('mug-350-ml');
    expect(slugify('T-Shirt (organic), blue/green')).toBe('t-shirt-organic-blue-green');
  });

  it('spells accented and special Latin letters in ASCII', () => {
    expect(slugify('Café Crème')).toBe('cafe-creme');
    expect(slugify('Ñandú Straße')).toBe('nandu-strasse');
    expect(slugify('Ærø Œuvre Łódź Þór')).toBe('aero-oeuvre-lodz-thor');
    expect(slugify('ﬁne Ｗｉｄｅ ①')).toBe('fine-wide-1');
  });

  it('is empty when nothing of the name is a Latin letter or a digit', () => {
    expect(slugify('Чай')).toBe('');
    expect(slugify('茶 🍵')).toBe('');
    expect(slugify('---')).toBe('');
    expect(slugify('Чай 2')).toBe('2');
  });

  it('cuts a long name to the longest handle, never ending on a hyphen', () => {
    const handle = slugify(`${'a'.repeat(99)} b`);
    expect(handle).toBe('a'.repeat(99));
    expect(slugify('x'.repeat(300))).toHaveLength(HANDLE_MAX_LENGTH);
  });

  it('always gives a handle or nothing, and leaves a handle as it is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 120 }), (name) => {
        const handle = slugify(name);
        expect(handle === '' || isHandle(handle)).toBe(true);
        expect(slugify(handle)).toBe(handle);
      }),
      { numRuns: 300 },
    );
  });
});

describe('a handle no one else has', () => {
  it('adds -2, -3, … to a handle in use', () => {
    expect(uniqueHandle('mug', new Set())).toBe('mug');
    expect(uniqueHandle('mug', new Set(['mug']))).toBe('mug-2');
    expect(uniqueHandle('mug', new Set(['mug', 'mug-2', 'mug-3']))).toBe('mug-4');
    expect(uniqueHandle('mug-2', new Set(['mug-2']))).toBe('mug-2-2');
  });

  it('shortens the base so the suffix fits', () => {
    const long = 'a'.repeat(HANDLE_MAX_LENGTH);
    expect(uniqueHandle(long, new Set([long]))).toBe(`${'a'.repeat(HANDLE_MAX_LENGTH - 2)}-2`);
  });

  it('gives names one after another handles unique among them', () => {
    expect(handlesInOrder(['Mug', 'mug', 'MUG!', 'Mug 2', 'Чай', 'Чай'], 'product')).toEqual([
      'mug',
      'mug-2',
      'mug-3',
      'mug-2-2',
      'product',
      'product-2',
    ]);
  });

  it('never gives a handle that is taken, and always a valid one', () => {
    const handle = fc.stringMatching(/^[a-z0-9]{1,3}(-[a-z0-9]{1,3}){0,2}$/);
    fc.assert(
      fc.property(handle, fc.array(handle, { maxLength: 30 }), (base, taken) => {
        const chosen = uniqueHandle(base, new Set(taken));
        expect(taken).not.toContain(chosen);
        expect(isHandle(chosen)).toBe(true);
      }),
    );
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 12 }), { maxLength: 40 }), (names) => {
        const handles = handlesInOrder(names, 'product');
        expect(new Set(handles).size).toBe(names.length);
      }),
    );
  });
});

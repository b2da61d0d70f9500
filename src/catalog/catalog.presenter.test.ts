import { describe, expect, it } from 'vitest';
import { weight } from './catalog.presenter.js';

describe('weight on the wire', () => {
  it.each([
    ['180.000', '180'],
    ['180', '180'],
    ['100', '100'],
    ['210.500', '210.5'],
    ['0.000', '0'],
    ['0', '0'],
    ['12.345', '12.345'],
    ['1000.010', '1000.01'],
  ])('shows %s as %s', (stored, shown) => {
    expect(weight(stored)).toBe(shown);
  });

  it('keeps a missing weight missing', () => {
    expect(weight(null)).toBeNull();
  });
});

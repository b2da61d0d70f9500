// The shop's category tree (web/shared/category-tree.ts): the flat list the storefront answers nested for
// the navigation, and a category's way down from the top for a product's breadcrumbs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CategoryEntry, categoryAncestry, isWithin, nestCategories } from '../web/shared/category-tree.js';

const entry = (id: number, parent_id: number | null): CategoryEntry => ({
  id,
  parent_id,

  name: `Category ${id}`,
  handle: `category-${id}`,
});

// Coffee > Mugs > Espresso cups; Tea
const tree = [entry(1, null), entry(2, 1), entry(4, 2), entry(3, null)];

describe('nestCategories', () => {
  it('puts each subcategory under its parent, in the order answered', () => {
    const nested = nestCategories(tree);
    expect(nested.map((n) => n.id)).toEqual([1, 3]);
    expect(nested[0]?.children.map((n) => n.id)).toEqual([2]);
    expect(nested[0]?.children[0]?.children.map((n) => n.id)).toEqual([4]);
    expect(nested[1]?.children).toEqual([]);
  });

  it('puts a category whose parent is not listed at the top rather than losing it', () => {
    expect(nestCategories([entry(5, 99)]).map((n) => n.id)).toEqual([5]);
  });

  it('keeps every category once, whatever the parents', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ parent: fc.option(fc.integer({ min: 1, max: 12 }), { nil: null }) }), { maxLength: 12 }),
        (rows) => {
          const entries = rows.map((r, i) => entry(i + 1, r.parent));
          const count = (nodes: ReturnType<typeof nestCategories>): number =>
            nodes.reduce((sum, n) => sum + 1 + count(n.children), 0);
          // A parent loop (never answered by the service) may leave a cycle out of the top; nothing is counted twice.
          expect(count(nestCategories(entries.filter((e) => e.parent_id === null || e.parent_id < e.id)))).toBe(
            entries.filter((e) => e.parent_id === null || e.parent_id < e.id).length,
          );
        },
      ),
    );
  });
});

describe('categoryAncestry', () => {
  it('walks from the top of the tree down to the category, itself last', () => {
    expect(categoryAncestry(tree, 4).map((c) => c.id)).toEqual([1, 2, 4]);
    expect(categoryAncestry(tree, 3).map((c) => c.id)).toEqual([3]);
  });

  it('is empty for a category not listed, and ends on a parent loop', () => {
    expect(categoryAncestry(tree, 42)).toEqual([]);
    expect(categoryAncestry([entry(1, 2), entry(2, 1)], 1).map((c) => c.id)).toEqual([2, 1]);
  });
});

describe('isWithin', () => {
  it('says which parents would put a category under itself', () => {
    expect(isWithin(tree, 4, 1)).toBe(true);
    expect(isWithin(tree, 1, 1)).toBe(true);
    expect(isWithin(tree, 3, 1)).toBe(false);
    expect(isWithin(tree, 1, 2)).toBe(false);
  });
});

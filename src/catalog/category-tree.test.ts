import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ancestorIds,
  type CategoryLink,
  categoryTree,
  inTreeOrder,
  parentIndex,
  placeAt,
  subtreeIds,
  wouldCreateCycle,
} from './category-tree.js';

// 1 ─┬─ 2 ─── 4
//    └─ 3
// 5
const forest: CategoryLink[] = [
  { id: 1, parentId: null },
  { id: 2, parentId: 1 },
  { id: 3, parentId: 1 },
  { id: 4, parentId: 2 },
  { id: 5, parentId: null },
];
const parents = parentIndex(forest);

/** Whether every category reaches a root by walking up. */
function acyclic(links: ReadonlyMap<number, number | null>): boolean {
  for (const id of links.keys()) {
    const seen = new Set<number>();
    let current: number | null = id;
    while (current !== null) {
      if (seen.has(current)) return false;
      seen.add(current);
      current = links.get(current) ?? null;
    }
  }
  return true;
}

describe('where a category may move', () => {
  it('refuses to put a category under itself or under one of its descendants', () => {
    expect(wouldCreateCycle(parents, 1, 1)).toBe(true);
    expect(wouldCreateCycle(parents, 1, 2)).toBe(true);
    expect(wouldCreateCycle(parents, 1, 4)).toBe(true);
    expect(wouldCreateCycle(parents, 2, 4)).toBe(true);
  });

  it('lets a category move under a sibling, a cousin, another tree or to the top', () => {
    expect(wouldCreateCycle(parents, 3, 2)).toBe(false);
    expect(wouldCreateCycle(parents, 4, 3)).toBe(false);
    expect(wouldCreateCycle(parents, 2, 5)).toBe(false);
    expect(wouldCreateCycle(parents, 4, null)).toBe(false);
  });

  it('ends, refusing, on a tree that already holds a cycle', () => {
    const broken = new Map<number, number | null>([
      [1, 2],
      [2, 1],
      [3, null],
    ]);
    expect(wouldCreateCycle(broken, 3, 1)).toBe(true);
    expect(ancestorIds(broken, 1)).toEqual([2]);
  });

  it('never makes a cycle, whatever moves are asked, when the refused ones are refused', () => {
    const moves = fc.array(fc.tuple(fc.integer({ min: 1, max: 12 }), fc.option(fc.integer({ min: 1, max: 12 }))), {
      maxLength: 60,
    });
    fc.assert(
      fc.property(moves, (asked) => {
        const links = new Map<number, number | null>(Array.from({ length: 12 }, (_, i) => [i + 1, null]));
        for (const [id, parent] of asked) {
          if (!wouldCreateCycle(links, id, parent)) links.set(id, parent);
          else expect(parent === id || ancestorIds(links, parent ?? 0).includes(id)).toBe(true);
          expect(acyclic(links)).toBe(true);
        }
      }),
    );
  });
});

describe('breadcrumbs and subtrees', () => {
  it('lists the ancestors root first, the category itself left out', () => {
    expect(ancestorIds(parents, 4)).toEqual([1, 2]);
    expect(ancestorIds(parents, 3)).toEqual([1]);
    expect(ancestorIds(parents, 5)).toEqual([]);
    expect(ancestorIds(parents, 99)).toEqual([]);
  });

  it('gives a category with everything under it, at any depth', () => {
    expect(subtreeIds(forest, 1).sort()).toEqual([1, 2, 3, 4]);
    expect(subtreeIds(forest, 2)).toEqual([2, 4]);
    expect(subtreeIds(forest, 5)).toEqual([5]);
  });

  it('walks a breadcrumb that always ends in a root and links each category to its parent', () => {
    const tree = fc.array(fc.option(fc.integer({ min: 1, max: 20 })), { minLength: 1, maxLength: 20 });
    fc.assert(
      fc.property(tree, (asked) => {
        // Parent ids lower than the child's: a forest by construction.
        const links = new Map<number, number | null>(
          asked.map((parent, i) => [i + 1, parent !== null && parent < i + 1 ? parent : null]),
        );
        for (const id of links.keys()) {
          const crumbs = ancestorIds(links, id);
          if (crumbs.length > 0) expect(links.get(crumbs[0] as number)).toBeNull();
          const chain = [...crumbs, id];
          for (let i = 1; i < chain.length; i += 1) expect(links.get(chain[i] as number)).toBe(chain[i - 1]);
        }
      }),
    );
  });
});

describe('the tree shoppers navigate', () => {
  it('nests children under their parents in position order, then id order', () => {
    const tree = categoryTree([
      { id: 1, parentId: null, position: 1 },
      { id: 2, parentId: null, position: 0 },
      { id: 3, parentId: 1, position: 5 },
      { id: 4, parentId: 1, position: 5 },
      { id: 5, parentId: 1, position: 0 },
    ]);
    expect(tree.map((n) => n.id)).toEqual([2, 1]);
    expect(tree[1]?.children.map((n) => n.id)).toEqual([5, 3, 4]);
  });

  it('places a moved category among its siblings, clamped to their number', () => {
    expect(placeAt([1, 2, 3], 3, 0)).toEqual([3, 1, 2]);
    expect(placeAt([1, 2, 3], 1, 1)).toEqual([2, 1, 3]);
    expect(placeAt([1, 2], 9, 1)).toEqual([1, 9, 2]);
    expect(placeAt([1, 2], 9, 50)).toEqual([1, 2, 9]);
  });
});

describe('the categories in tree order', () => {
  it('lists each parent before its children, siblings in order, with their depth', () => {
    const ordered = inTreeOrder([
      { id: 1, parentId: null, position: 1 },
      { id: 2, parentId: 1, position: 1 },
      { id: 3, parentId: 1, position: 0 },
      { id: 4, parentId: 3, position: 0 },
      { id: 5, parentId: null, position: 0 },
    ]);
    expect(ordered.map((c) => [c.id, c.depth])).toEqual([
      [5, 0],
      [1, 0],
      [3, 1],
      [4, 2],
      [2, 1],
    ]);
  });
});

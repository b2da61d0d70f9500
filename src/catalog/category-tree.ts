/**
 * The category tree's rules: where a category may move (never under itself or a descendant), its breadcrumb, its
 * subtree, the nested tree shoppers navigate, and the order of siblings. Pure: callers read the rows
 * (docs/decisions/0033-categories-and-collections.md).
 */

/** What the rules need of a category. */
export interface CategoryLink {
  id: number;
  parentId: number | null;
}

/** A category with its place among its siblings (lower positions first, then lower ids). */
export interface PlacedCategory extends CategoryLink {
  position: number;
}

/** A category and its children, in sibling order. */
export type CategoryNode<C extends PlacedCategory> = C & { children: CategoryNode<C>[] };

/** Each category's parent, by id. */
export type ParentIndex = ReadonlyMap<number, number | null>;

export function parentIndex(categories: Iterable<CategoryLink>): Map<number, number | null> {
  const parents = new Map<number, number | null>();
  for (const c of categories) parents.set(c.id, c.parentId);
  return parents;
}

/**
 * Whether putting `id` under `parentId` would make a category its own ancestor: the new parent is the category
 * itself or one of its descendants. A root (`null`) never does. Walks up from the new parent, at most once per
 * category, so a tree that already holds a cycle (written by hand) still ends.
 */
export function wouldCreateCycle(parents: ParentIndex, id: number, parentId: number | null): boolean {
  let current = parentId;
  for (let steps = 0; current !== null && steps <= parents.size; steps += 1) {
    if (current === id) return true;
    current = parents.get(current) ?? null;
  }
  return current !== null;
}

/** The ancestors of a category, the root first, itself excluded: its breadcrumb. Empty for a root or unknown id. */
export function ancestorIds(parents: ParentIndex, id: number): number[] {
  const path: number[] = [];
  const seen = new Set<number>([id]);
  let current = parents.get(id) ?? null;
  while (current !== null && !seen.has(current) && parents.has(current)) {
    path.push(current);
    seen.add(current);
    current = parents.get(current) ?? null;
  }
  return path.reverse();
}

/** A category and every category under it, at any depth (the category first, then breadth first). */
export function subtreeIds(categories: Iterable<CategoryLink>, id: number): number[] {
  const children = new Map<number, number[]>();
  for (const c of categories) {
    if (c.parentId === null) continue;
    const list = children.get(c.parentId);
    if (list) list.push(c.id);
    else children.set(c.parentId, [c.id]);
  }
  const found = [id];
  const seen = new Set(found);
  for (let i = 0; i < found.length; i += 1) {
    for (const child of children.get(found[i] as number) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      found.push(child);
    }
  }
  return found;
}

/** Sibling order: position, then id (two categories given the same position keep the order they were made in). */
export function bySiblingOrder(a: PlacedCategory, b: PlacedCategory): number {
  return a.position - b.position || a.id - b.id;
}

/** The nested tree: roots in sibling order, each with its children in sibling order. */
export function categoryTree<C extends PlacedCategory>(categories: readonly C[]): CategoryNode<C>[] {
  const nodes = new Map<number, CategoryNode<C>>();
  for (const c of [...categories].sort(bySiblingOrder)) nodes.set(c.id, { ...c, children: [] });
  const roots: CategoryNode<C>[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

// placeAt is the rule of every ordered list (categories, collections, images): it lives in shared/.
export { placeAt } from '../shared/positions.js';

/** Every category in tree order (a parent, then its children's subtrees in sibling order), with its depth (0: top). */
export function inTreeOrder<C extends PlacedCategory>(categories: readonly C[]): (C & { depth: number })[] {
  const ordered: (C & { depth: number })[] = [];
  const visit = (nodes: CategoryNode<C>[], depth: number) => {
    for (const { children, ...category } of nodes) {
      ordered.push({ ...(category as unknown as C), depth });
      visit(children, depth + 1);
    }
  };
  visit(categoryTree(categories), 0);
  return ordered;
}

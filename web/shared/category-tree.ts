/**
 * A category tree as the API lists it (flat, in tree order, each with its `parent_id`: the storefront's
 * `GET /product/storefront/api/categories/` and the dashboard's) turned into what the pages show: nested for the
 * shop's navigation and the dashboard's tree, and a category's ancestors for breadcrumbs and for the moves that would
 * put a category under itself. Pure, tested in test/storefront-category-tree.test.ts.
 */
export interface CategoryEntry {
  id: number;
  parent_id: number | null;
  name: string;
  handle: string;
}

export type CategoryNode<E extends CategoryEntry = CategoryEntry> = E & { children: CategoryNode<E>[] };

/** The tree, its top-level categories first; a category whose parent is not listed is put at the top. */
export function nestCategories<E extends CategoryEntry>(entries: readonly E[]): CategoryNode<E>[] {
  const byId = new Map<number, CategoryNode<E>>();
  for (const entry of entries) byId.set(entry.id, { ...entry, children: [] });
  const top: CategoryNode<E>[] = [];
  for (const entry of entries) {
    const node = byId.get(entry.id) as CategoryNode<E>;
    const parent = entry.parent_id === null ? undefined : byId.get(entry.parent_id);
    if (parent === undefined || parent === node) top.push(node);
    else parent.children.push(node);
  }
  return top;
}

/**
 * The path from the top of the tree down to the category `id`, itself last (empty when it is not listed). A parent
 * loop, which the service never answers, ends the walk rather than looping forever.
 */
export function categoryAncestry<E extends CategoryEntry>(entries: readonly E[], id: number): E[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const path: E[] = [];
  const seen = new Set<number>();
  let current = byId.get(id);
  while (current !== undefined && !seen.has(current.id)) {
    seen.add(current.id);
    path.unshift(current);
    current = current.parent_id === null ? undefined : byId.get(current.parent_id);
  }
  return path;
}

/** Whether `candidate` is `id` or one of its subcategories: a parent the API would refuse (422 category_cycle). */
export function isWithin(entries: readonly CategoryEntry[], candidate: number, id: number): boolean {
  return categoryAncestry(entries, candidate).some((e) => e.id === id);
}

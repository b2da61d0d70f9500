/**
 * The storefront's category tree (`GET /product/storefront/api/categories/`: flat, in tree order, each with its
 * `parent_id` and `depth`) turned into what the shop's pages show: nested for the navigation, and a category's
 * ancestors for a product's breadcrumb. Pure, tested in test/storefront-category-tree.test.ts.
 */
export interface CategoryEntry {
  id: number;
  parent_id: number | null;
  depth: number;
  name: string;
  handle: string;
}

export interface CategoryNode extends CategoryEntry {
  children: CategoryNode[];
}

/** The tree, its top-level categories first; a category whose parent is not listed is put at the top. */
export function nestCategories(entries: readonly CategoryEntry[]): CategoryNode[] {
  const byId = new Map<number, CategoryNode>();
  for (const entry of entries) byId.set(entry.id, { ...entry, children: [] });
  const top: CategoryNode[] = [];
  for (const entry of entries) {
    const node = byId.get(entry.id) as CategoryNode;
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
export function categoryAncestry(entries: readonly CategoryEntry[], id: number): CategoryEntry[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const path: CategoryEntry[] = [];
  const seen = new Set<number>();
  let current = byId.get(id);
  while (current !== undefined && !seen.has(current.id)) {
    seen.add(current.id);
    path.unshift(current);
    current = current.parent_id === null ? undefined : byId.get(current.parent_id);
  }
  return path;
}

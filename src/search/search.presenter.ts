import { inTreeOrder } from '../catalog/category-tree.js';
import type { CatalogCategory } from '../catalog/navigation.repository.js';
import type { CurrencyFormat } from '../shared/money.js';
import type { SearchFacets } from './product-search.js';

/** A search's facet counts as the answer shows them: categories in tree order, price ranges as amounts. */
export function presentFacets(
  facets: SearchFacets,
  shown: { categories: readonly CatalogCategory[]; bounds: readonly number[]; money: CurrencyFormat },
) {
  const { bounds, money } = shown;
  return {
    categories: inTreeOrder(shown.categories).flatMap((c) => {
      const count = facets.categories.get(c.id);
      return count === undefined
        ? []
        : [{ id: c.id, parent_id: c.parentId, depth: c.depth, name: c.name, handle: c.handle, count }];
    }),
    price: [...facets.prices.entries()]
      .sort(([a], [b]) => a - b)
      .flatMap(([index, count]) => {
        const low = bounds[index];
        if (low === undefined) return [];
        const high = bounds[index + 1];
        return [{ min: money.format(low), max: high === undefined ? null : money.format(high), count }];
      }),
    options: [...facets.options.entries()]
      .sort(([a], [b]) => a.localeCompare(b, 'en'))
      .map(([name, values]) => ({
        name,
        values: [...values.entries()]
          .sort(([a, m], [b, n]) => n - m || a.localeCompare(b, 'en'))
          .map(([value, count]) => ({ value, count })),
      })),
    availability: { in_stock: facets.availability.inStock, all: facets.availability.all },
  };
}

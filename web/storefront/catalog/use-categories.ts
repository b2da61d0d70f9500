import { useEffect, useState } from 'preact/hooks';
import { type Api, ok } from '../../api/client';
import { useShop } from '../context';
import type { CategoryEntry } from '../../shared/category-tree';

interface Navigation {
  categories: CategoryEntry[];
  collections: { id: number; name: string; handle: string }[];
}

/** Read once per page load and shared by the navigation and the breadcrumbs (the service caches them too). */
const loaded = new WeakMap<Api, Promise<Navigation>>();

function loadNavigation(api: Api): Promise<Navigation> {
  let found = loaded.get(api);
  if (found === undefined) {
    found = Promise.all([
      ok(api.GET('/product/storefront/api/categories/')),
      ok(api.GET('/product/storefront/api/collections/')),
    ]).then(([categories, collections]) => ({ categories, collections }));
    // A failed read is tried again by the next page that asks.
    found.catch(() => loaded.delete(api));
    loaded.set(api, found);
  }
  return found;
}

/** The store's categories (tree order) and collections; undefined until read, or when they cannot be. */
export function useNavigation(): Navigation | undefined {
  const { api } = useShop();
  const [navigation, setNavigation] = useState<Navigation>();
  useEffect(() => {
    let current = true;
    loadNavigation(api)
      .then((found) => current && setNavigation(found))
      // Without it the shop still sells: no category bar, no breadcrumb.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [api]);
  return navigation;
}

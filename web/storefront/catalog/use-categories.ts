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
/** The navigation once read, so a page shown after it has it at its first render. */
const read = new WeakMap<Api, Navigation>();

function loadNavigation(api: Api): Promise<Navigation> {
  let found = loaded.get(api);
  if (found === undefined) {
    found = Promise.all([
      ok(api.GET('/product/storefront/api/categories/')),
      ok(api.GET('/product/storefront/api/collections/')),
    ]).then(([categories, collections]) => {
      const navigation = { categories, collections };
      read.set(api, navigation);
      return navigation;
    });
    // A failed read is tried again by the next page that asks.
    found.catch(() => loaded.delete(api));
    loaded.set(api, found);
  }
  return found;
}

/**
 * Whether the navigation's first read has ended (read or failed): the shop lays its page out after it, so the category
 * bar appearing above the page never pushes the page down (a layout shift).
 */
export function useNavigationSettled(api: Api): boolean {
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    const settle = () => setSettled(true);
    loadNavigation(api).then(settle, settle);
  }, [api]);
  return settled;
}

/** The store's categories (tree order) and collections; undefined until read, or when they cannot be. */
export function useNavigation(): Navigation | undefined {
  const { api } = useShop();
  const [navigation, setNavigation] = useState<Navigation | undefined>(read.get(api));
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

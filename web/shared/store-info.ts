import { useEffect, useState } from 'preact/hooks';
import { type Api, ok } from '../api/client';

export interface StoreInfo {
  name: string;
  currency: string;
}

/** The store's name and currency (GET / as JSON), once per page load. */
export function useStoreInfo(api: Api): StoreInfo | undefined {
  const [info, setInfo] = useState<StoreInfo>();
  useEffect(() => {
    ok(api.GET('/', { headers: { accept: 'application/json' } }))
      // The page answers HTML to browsers' navigations; with `accept: application/json` it is the JSON.
      .then((home) => setInfo(typeof home === 'string' ? { name: 'Shop', currency: '' } : home))
      .catch(() => setInfo({ name: 'Shop', currency: '' }));
  }, [api]);
  return info;
}

import { useEffect, useState } from 'preact/hooks';
import { type Api, ok } from '../../api/client';
import { useShop } from '../context';

import type { Destinations } from './shipping-countries';

export type { Destinations };

/** Read once per page load (the service keeps it in memory too). */
const loaded = new WeakMap<Api, Promise<Destinations>>();

/** Where the store ships (`GET /shipping/storefront/api/destinations/`); undefined until read or when it cannot be. */
export function useDestinations(): Destinations | undefined {
  const { api } = useShop();
  const [found, setFound] = useState<Destinations>();
  useEffect(() => {
    let reading = loaded.get(api);
    if (reading === undefined) {
      const started = ok(api.GET('/shipping/storefront/api/destinations/'));
      started.catch(() => loaded.delete(api));
      loaded.set(api, started);
      reading = started;
    }
    let current = true;
    reading.then((d) => current && setFound(d)).catch(() => undefined);
    return () => {
      current = false;
    };
  }, [api]);
  return found;
}

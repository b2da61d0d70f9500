import { useEffect, useState } from 'preact/hooks';
import { type Answer, type Api, ok } from '../../api/client';
import type { Country } from '../../shared/countries';
import { useShop } from '../context';

export type Destinations = Answer<'/shipping/storefront/api/destinations/', 'get'>;

/** Read once per page load (the service keeps it in memory too). */
const loaded = new WeakMap<Api, Promise<Destinations>>();

/** Where the store ships (`GET /shipping/storefront/api/destinations/`); undefined until read or when it cannot be. */
export function useDestinations(): Destinations | undefined {
  const { api } = useShop();
  const [found, setFound] = useState<Destinations>();
  useEffect(() => {
    let reading = loaded.get(api);
    if (reading === undefined) {
      reading = ok(api.GET('/shipping/storefront/api/destinations/'));
      reading.catch(() => loaded.delete(api));
      loaded.set(api, reading);
    }
    let current = true;
    reading.then((d) => current && setFound(d)).catch(() => undefined);
    return () => {
      current = false;
    };
  }, [api]);
  return found;
}

/**
 * The countries an address form offers: those the store ships to, and the one already chosen (a stored address may be
 * elsewhere; the API then says it cannot ship there). Every country while the list is unknown, when the store ships
 * everywhere, or when it names none yet (nothing would be offered).
 */
export function shippingCountries(all: Country[], destinations: Destinations | undefined, chosen: string): Country[] {
  if (destinations === undefined || destinations.all_countries || destinations.countries.length === 0) return all;
  const offered = new Set([...destinations.countries, chosen]);
  return all.filter((c) => offered.has(c.code));
}

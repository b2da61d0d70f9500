// Which countries the checkout's address form offers (pure, tested in test/storefront-regions.test.ts).
import type { paths } from '../../api/schema.js';

/** A country of the form's list (`countries()` of web/shared/countries.ts). */
interface Country {
  code: string;
  name: string;
}

/** Where the store ships: `GET /shipping/storefront/api/destinations/`. */
export type Destinations =
  paths['/shipping/storefront/api/destinations/']['get']['responses'][200]['content']['application/json'];

/**
 * The countries an address form offers: those the store ships to, and the one already chosen (a stored address may be
 * elsewhere; the API then says it cannot ship there). Every country while the list is unknown, when the store ships
 * everywhere, or when it names none yet (nothing would be offered).
 */
export function shippingCountries<C extends Country>(
  all: C[],
  destinations: Destinations | undefined,
  chosen: string,
): C[] {
  if (destinations === undefined || destinations.all_countries || destinations.countries.length === 0) return all;
  const offered = new Set([...destinations.countries, chosen]);
  return all.filter((c) => offered.has(c.code));
}

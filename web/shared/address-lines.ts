/** An address as the API answers it (an order's shipping or billing address). */
export interface PostalAddress {
  first_name: string;
  last_name: string;
  street_address: string;
  postal_code: string;
  city: string;
  state: string;
  country: string;
}

type Locality = (a: { city: string; state: string; postal: string }) => string[];

/** How a country writes the lines between the street and the country: its city, state and postal code. */
const LOCALITIES: Record<string, Locality> = {
  US: (a) => [`${join(', ', a.city, a.state)} ${a.postal}`],
  CA: (a) => [join(' ', a.city, a.state, a.postal)],
  AU: (a) => [join(' ', a.city, a.state, a.postal)],
  GB: (a) => [a.city, a.state, a.postal],
  IE: (a) => [a.city, a.state, a.postal],
};

/** Most of the world: the postal code before the city ("10115 Berlin"), the state (if any) on a line of its own. */
const POSTAL_FIRST: Locality = (a) => [join(' ', a.postal, a.city), a.state];

/**
 * An address as it is written on a parcel in its country, one entry per line: the name, the street, the city with its
 * state and postal code ("San Francisco, CA 94105", "10115 Berlin", "London" then "SW1A 1AA"), the country's name.
 * Empty parts leave no gap.
 */
export function addressLines(a: PostalAddress): string[] {
  const locality = LOCALITIES[a.country.toUpperCase()] ?? POSTAL_FIRST;
  return [
    join(' ', a.first_name, a.last_name),
    a.street_address,
    ...locality({ city: a.city.trim(), state: a.state.trim(), postal: a.postal_code.trim() }).map((l) => l.trim()),
    a.country === '' ? '' : countryName(a.country),
  ].filter((line) => line !== '');
}

/** A country's name ("United States") in the page's language (English outside a page); the code if none is known. */
function countryName(code: string): string {
  // Typed loosely: the module is also tested outside a browser, where there is no document.
  const page = (globalThis as { document?: { documentElement: { lang: string } } }).document;
  const language = page?.documentElement.lang || 'en';
  try {
    return new Intl.DisplayNames([language], { type: 'region' }).of(code.toUpperCase()) ?? code;
  } catch {
    return code; // not a region code the browser knows
  }
}

/** The non-empty parts, joined. */
function join(separator: string, ...parts: string[]): string {
  return parts
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .join(separator);
}

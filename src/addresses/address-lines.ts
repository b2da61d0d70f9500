// How an address is written on a parcel: one rule for the order emails, the shop's order page and the dashboard (the
// web apps import this file; it reads nothing but its input).

/** An address as orders keep it and the API answers it (a shipping or billing address). */
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
 * state and postal code ("San Francisco, CA 94105", "10115 Berlin", "London" then "SW1A 1AA"), the country's name in
 * `language` (a BCP 47 tag; English unless told). Empty parts leave no gap.
 */
export function addressLines(a: PostalAddress, language = 'en'): string[] {
  const locality = LOCALITIES[a.country.toUpperCase()] ?? POSTAL_FIRST;
  return [
    join(' ', a.first_name, a.last_name),
    a.street_address.trim(),
    ...locality({ city: a.city.trim(), state: a.state.trim(), postal: a.postal_code.trim() }).map((l) => l.trim()),
    a.country.trim() === '' ? '' : countryName(a.country.trim(), language),
  ].filter((line) => line !== '');
}

/** A country's name ("United States") in `language`; the code itself when none is known. */
function countryName(code: string, language: string): string {
  try {
    return new Intl.DisplayNames([language], { type: 'region' }).of(code.toUpperCase()) ?? code;
  } catch {
    return code; // not a region code, or not a language tag, that Intl knows
  }
}

/** The non-empty parts, joined. */
function join(separator: string, ...parts: string[]): string {
  return parts
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .join(separator);
}

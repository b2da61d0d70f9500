/**
 * How a rate's place fields compare with an address: case and surrounding blanks never matter,
 * and an empty string is the same as no value (stored addresses keep '' for "no state").
 */
export function placeKey(value: string | null | undefined): string | null {
  const key = value?.trim().toLowerCase() ?? '';
  return key === '' ? null : key;
}

/** A rate field matches when it is unset (applies everywhere) or equal to the address's. */
export function placeMatches(rateValue: string | null | undefined, addressValue: string | null | undefined): boolean {
  const wanted = placeKey(rateValue);
  return wanted === null || wanted === placeKey(addressValue);
}

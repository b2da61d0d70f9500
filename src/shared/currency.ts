/**
 * ISO 4217 currencies as this runtime's Intl knows them. Codes Intl does not list are refused
 * instead of silently getting two decimals, which is what NumberFormat does for unknown codes.
 */
const supported = new Set(Intl.supportedValuesOf('currency'));

export function isSupportedCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && supported.has(code);
}

const exponents = new Map<string, number>();

/** Number of minor-unit digits of a currency: 2 for USD, 0 for JPY, 3 for KWD. */
export function currencyExponent(code: string): number {
  const known = exponents.get(code);
  if (known !== undefined) return known;
  if (!isSupportedCurrency(code)) throw new RangeError(`unsupported currency ${code}`);
  // Building a NumberFormat is slow; the answer never changes, so it is asked once per currency.
  const exponent =
    new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
  exponents.set(code, exponent);
  return exponent;
}

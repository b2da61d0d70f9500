// Amounts stay the API's decimal strings (no arithmetic on money in the browser); ordering two of them is all the apps
// need, e.g. for a product's price range.

/** Compares two non-negative decimal strings of one currency ("9.99" < "25.00" < "100.00"), without parsing them. */
export function compareAmounts(a: string, b: string): number {
  const [aWhole = '', aFraction = ''] = a.split('.');
  const [bWhole = '', bFraction = ''] = b.split('.');
  const width = Math.max(aWhole.length, bWhole.length);
  const whole = compareDigits(stripZeros(aWhole).padStart(width, '0'), stripZeros(bWhole).padStart(width, '0'));
  if (whole !== 0) return whole;
  const places = Math.max(aFraction.length, bFraction.length);
  return compareDigits(aFraction.padEnd(places, '0'), bFraction.padEnd(places, '0'));
}

/** Two digit strings of one length compare as their numbers do. */
function compareDigits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function stripZeros(digits: string): string {
  return digits.replace(/^0+(?=\d)/, '');
}

/** The lowest and highest of some amounts, or undefined for none. */
export function amountRange(amounts: string[]): { low: string; high: string } | undefined {
  const sorted = [...amounts].sort(compareAmounts);
  const low = sorted[0];
  const high = sorted[sorted.length - 1];
  return low === undefined || high === undefined ? undefined : { low, high };
}

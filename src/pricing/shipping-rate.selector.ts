import {
  type Decimal,
  type RoundingMode,
  addDecimal,
  compareDecimal,
  formatDecimal,
  multiplyByDecimal,
  multiplyDecimal,
  parseDecimal,
  shiftDecimal,
  subtractDecimal,
  sumMinor,
} from '../shared/money.js';
import { placeKey, placeMatches } from './address-match.js';
import type { PricingAddress, ShippingBracket } from './pricing.types.js';

/** A stored shipping rate of one shipping method, as the database layer fetched it. */
export interface ShippingRateCandidate extends ShippingBracket {
  id: number;
  /** Null or empty: any country (and then state and city are normally empty too). */
  country: string | null;
  state: string | null;
  city: string | null;
}

/** city > state > country > any: how narrowly a rate names its place. */
export function shippingRateSpecificity(
  rate: Pick<ShippingRateCandidate, 'country' | 'state' | 'city'>,
): 0 | 1 | 2 | 3 {
  if (placeKey(rate.city) !== null) return 3;
  if (placeKey(rate.state) !== null) return 2;
  if (placeKey(rate.country) !== null) return 1;
  return 0;
}

/** Every place field the rate sets equals the address's. */
export function shippingRateMatchesAddress(
  rate: Pick<ShippingRateCandidate, 'country' | 'state' | 'city'>,
  address: PricingAddress,
): boolean {
  return (
    placeMatches(rate.country, address.country)
    && placeMatches(rate.state, address.state)
    && placeMatches(rate.city, address.city)
  );
}

/** `weightMinKg ≤ weight ≤ weightMaxKg`, both ends inclusive; no maximum means no upper limit. */
export function bracketHoldsWeight(bracket: ShippingBracket, weightGrams: string): boolean {
  const kg = shiftDecimal(weightGrams, 3);
  if (compareDecimal(kg, bracket.weightMinKg) < 0) return false;
  return bracket.weightMaxKg == null || bracket.weightMaxKg === '' || compareDecimal(kg, bracket.weightMaxKg) <= 0;
}

function maxKg(rate: ShippingBracket): Decimal | null {
  return rate.weightMaxKg == null || rate.weightMaxKg === '' ? null : parseDecimal(rate.weightMaxKg);
}

/** Among equally specific rates: the lower upper bound (a parcel of exactly 1 kg ships at the
 * "up to 1 kg" rate), then the higher lower bound, then the lower id. */
function narrower(a: ShippingRateCandidate, b: ShippingRateCandidate): boolean {
  const aMax = maxKg(a);
  const bMax = maxKg(b);
  if ((aMax === null) !== (bMax === null)) return aMax !== null;
  if (aMax !== null && bMax !== null && compareDecimal(aMax, bMax) !== 0) return compareDecimal(aMax, bMax) < 0;
  const byMin = compareDecimal(a.weightMinKg, b.weightMinKg);
  if (byMin !== 0) return byMin > 0;
  return a.id < b.id;
}

/**
 * The rate of one shipping method that applies to an order: among the candidates whose place
 * matches the address and whose weight bracket holds the order weight, the most specific
 * (city > state > country > any). Null when none applies (the caller answers
 * `shipping_unavailable`).
 */
export function selectShippingRate<T extends ShippingRateCandidate>(
  candidates: readonly T[],
  address: PricingAddress,
  weightGrams: string,
): T | null {
  let best: T | null = null;
  for (const rate of candidates) {
    if (!shippingRateMatchesAddress(rate, address) || !bracketHoldsWeight(rate, weightGrams)) continue;
    if (best === null) {
      best = rate;
      continue;
    }
    const specificity = shippingRateSpecificity(rate);
    const bestSpecificity = shippingRateSpecificity(best);
    if (specificity > bestSpecificity || (specificity === bestSpecificity && narrower(rate, best))) best = rate;
  }
  return best;
}

/** Σ quantity × unit weight in grams, exactly, as a decimal string; lines without weight add 0. */
export function orderWeightGrams(lines: readonly { quantity: number; weightGrams: string | null }[]): string {
  let total: Decimal = { units: 0n, scale: 0 };
  for (const line of lines) {
    if (line.weightGrams === null || line.weightGrams === '') continue;
    const unit = parseDecimal(line.weightGrams);
    if (unit.units < 0n) throw new RangeError(`weight ${line.weightGrams} is negative`);
    total = addDecimal(total, multiplyDecimal(unit, line.quantity));
  }
  return formatDecimal(total);
}

/**
 * `base + per_kg × (kg − bracket minimum)`, the per-kg part rounded once in `mode`. A weight
 * below the minimum (the rate was not selected for it) is charged the base rate only.
 */
export function shippingFeeForWeight(bracket: ShippingBracket, weightGrams: string, mode: RoundingMode): number {
  const excessKg = subtractDecimal(shiftDecimal(weightGrams, 3), bracket.weightMinKg);
  const perKg = excessKg.units > 0n ? multiplyByDecimal(bracket.perKgRateMinor, excessKg, mode) : 0;
  return sumMinor([bracket.baseRateMinor, perKg]);
}

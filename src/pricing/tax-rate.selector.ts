import { formatDecimal, parseDecimal } from '../shared/money.js';
import { placeKey, placeMatches } from './address-match.js';
import type { PricingAddress } from './pricing.types.js';

/** A stored tax rate, as the database layer fetched it (typically every rate for the country). */
export interface TaxRateCandidate {
  id: number;
  /** Null: the place's default rate, for classes without a rate of their own there. */
  taxClassId: number | null;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** Null or empty: the rate applies to the whole country. */
  state: string | null;
  /** Percent as a decimal string, up to 4 decimals (`"7.2500"`). */
  rate: string;
  isActive: boolean;
}

/**
 * The rate of ONE tax class (or of the default rates alone) for a delivery address: an active rate
 * for the address's country and state first, else an active country-wide rate, else null. Two
 * equally specific rates (an admin mistake) resolve to the lower id, so the answer is stable.
 */
export function selectTaxRate<T extends TaxRateCandidate>(candidates: readonly T[], address: PricingAddress): T | null {
  const classes = new Set(candidates.map((rate) => rate.taxClassId));
  if (classes.size > 1) throw new RangeError('selectTaxRate takes the rates of one tax class; use resolveTaxRates');
  const country = placeKey(address.country);
  let best: { rate: T; specificity: number } | null = null;
  for (const rate of candidates) {
    if (!rate.isActive || country === null || placeKey(rate.country) !== country) continue;
    if (!placeMatches(rate.state, address.state)) continue;
    const specificity = placeKey(rate.state) === null ? 0 : 1;
    if (!best || specificity > best.specificity || (specificity === best.specificity && rate.id < best.rate.id)) {
      best = { rate, specificity };
    }
  }
  return best?.rate ?? null;
}

/**
 * Every tax class's rate for a delivery address: the map `priceOrder` takes as `taxRates` (class
 * id → percent). A class's own rate (state, else country-wide) comes first; a class without one
 * takes the default rate of the place (`taxClassId` null; state, else country-wide), so a class's
 * country-wide rate beats a state's default rate. Classes with neither are absent (taxed at 0).
 * `classIds`: the classes to resolve (those of the lines and of the shipping method); without it,
 * the classes the candidates name, which leaves out classes that only the default would tax.
 */
export function resolveTaxRates(
  candidates: readonly TaxRateCandidate[],
  address: PricingAddress,
  classIds?: Iterable<number>,
): Map<number, string> {
  const byClass = new Map<number | null, TaxRateCandidate[]>();
  for (const rate of candidates) byClass.set(rate.taxClassId, [...(byClass.get(rate.taxClassId) ?? []), rate]);
  const fallback = selectTaxRate(byClass.get(null) ?? [], address);
  const wanted = classIds ?? [...byClass.keys()].filter((id): id is number => id !== null);
  const resolved = new Map<number, string>();
  for (const classId of wanted) {
    const chosen = selectTaxRate(byClass.get(classId) ?? [], address) ?? fallback;
    if (chosen) resolved.set(classId, canonicalRate(chosen.rate));
  }
  return resolved;
}

/**
 * A tax rate in percent as a canonical string (`"7.2500"` → `"7.25"`), refusing what is not a
 * non-negative decimal with at most 4 decimals.
 */
export function canonicalRate(rate: string): string {
  const parsed = parseDecimal(rate, 4);
  if (parsed.units < 0n) throw new RangeError(`tax rate ${rate} is negative`);
  return formatDecimal(parsed);
}

import { DEFAULT_OPTION, OPTION_LIMITS } from '../catalog/options.rules.js';
import { convertPrice, type MarketPricing } from '../markets/market-price.js';
import { MAX_MINOR_UNITS } from '../shared/money.js';

/*
 * The rules of search that are not SQL (decision 0034): how a query is cut into terms, what a typo is, how a page's
 * cursor is written, and which prices the price facet groups together. Pure: the repository runs what these decide.
 */

/** At most this many terms of a query are searched; the rest are ignored. */
export const MAX_TERMS = 8;
/** Longer terms are cut (the documents' words are at most 60 characters: migration 0030). */
export const MAX_TERM_LENGTH = 60;
/** A term shorter than this is never taken for a typo (too many words are near "ab"). */
export const MIN_TYPO_LENGTH = 3;
/** Trigram similarity (pg_trgm `similarity`, 0 to 1) a word needs to stand in for a term no word starts with. */
export const TYPO_SIMILARITY = 0.25;
/** At most this many words stand in for one such term, the nearest first. */
export const TYPO_ALTERNATIVES = 3;
/** How much the trigram similarity of the query to a product's name adds to its text rank (ts_rank, about 0 to 1). */
export const NAME_SIMILARITY_WEIGHT = 0.5;
/**
 * Options that are not a facet, in lower case: "Title" is the option of products whose variants were never given
 * options (decision 0036); its values are variant names ("Default", "Steel"), not a vocabulary shoppers filter by.
 */
export const OPTIONS_NOT_FACETED: readonly string[] = [DEFAULT_OPTION.toLowerCase()];
/** At most this many option filters (name:value) in one search. */
export const MAX_OPTION_FILTERS = 20;

/**
 * The option filter as given (`option=Colour:Red`, repeatable): option name → values asked for, both in lower case,
 * as options are compared in any case (options.rules.ts). Several values of one option: any of them; several options:
 * each of them. Cut at the first colon, so a value may hold one ("Ratio:1:2"); a name cannot.
 */
export function optionFiltersOf(
  given: readonly string[],
): { filters: Map<string, string[]> } | { error: string; index: number } {
  const filters = new Map<string, string[]>();
  if (given.length > MAX_OPTION_FILTERS) {
    return { error: `may be given at most ${MAX_OPTION_FILTERS} times`, index: MAX_OPTION_FILTERS };
  }
  for (const [index, text] of given.entries()) {
    const colon = text.indexOf(':');
    const name = text.slice(0, colon).trim().normalize('NFC').toLowerCase();
    const value = text
      .slice(colon + 1)
      .trim()
      .normalize('NFC')
      .toLowerCase();
    if (colon < 0 || name === '' || value === '')
      return { error: 'must be an option name, a colon and a value', index };
    if (name.length > OPTION_LIMITS.nameLength || value.length > OPTION_LIMITS.valueLength) {
      return { error: 'names no option value (too long)', index };
    }
    const values = filters.get(name) ?? [];
    if (!values.includes(value)) values.push(value);
    filters.set(name, values);
  }
  return { filters };
}

/** Ranks are compared as whole numbers of millionths, so that a cursor holds one exactly. */
export const RANK_SCALE = 1_000_000;

/**
 * The terms of a query as the search documents spell words: lower case, hyphens dropped ("T-Shirt" is "tshirt", as
 * migration 0030 indexes hyphenated words too), split at anything but a letter or a digit, each once, in order.
 */
export function searchTerms(q: string): string[] {
  const words = q
    .normalize('NFC')
    .toLowerCase()
    .replace(/(?<=[\p{L}\p{N}])-+(?=[\p{L}\p{N}])/gu, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '')
    .map((w) => [...w].slice(0, MAX_TERM_LENGTH).join(''));
  return [...new Set(words)].slice(0, MAX_TERMS);
}

/** A lexeme quoted for tsquery input: taken as it is, no parsing, no normalisation. */
const lexeme = (word: string) => `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * The tsquery of a search (tsquery input syntax, cast with `::tsquery`): every term must match, as a prefix of a
 * word ("mug" finds "mugs"), or through one of the words that stand in for it when it is a typo.
 */
export function tsqueryOf(terms: readonly string[], alternatives: ReadonlyMap<string, readonly string[]>): string {
  return terms
    .map((term) => {
      const options = [`${lexeme(term)}:*`, ...(alternatives.get(term) ?? []).map(lexeme)];
      return options.length === 1 ? options[0] : `(${options.join(' | ')})`;
    })
    .join(' & ');
}

/** Where a page ends: the rank of its last product and its id (ties in rank are in id order). */
export interface SearchCursor {
  rank: number;
  id: number;
}

/** A cursor as the answer carries it: opaque to clients (base64url). */
export function encodeSearchCursor(cursor: SearchCursor): string {
  return Buffer.from(`${cursor.rank}.${cursor.id}`).toString('base64url');
}

/** The cursor a client sent back, or undefined when it is not one this service wrote. */
export function decodeSearchCursor(text: string): SearchCursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(text)) return undefined;
  const match = /^(\d{1,15})\.(\d{1,10})$/.exec(Buffer.from(text, 'base64url').toString('latin1'));
  if (!match) return undefined;
  const rank = Number(match[1]);
  const id = Number(match[2]);
  return id >= 1 && id <= 2_147_483_647 ? { rank, id } : undefined;
}

/**
 * The lower bounds of the price facet's ranges, in minor units of a currency with `exponent` decimals: 0, then
 * 1, 2, 5, 10, 20, 50, … whole units, up to 10,000,000. A range runs from its bound to the next one (excluded).
 */
export function priceBucketBounds(exponent: number): number[] {
  const unit = 10 ** exponent;
  const bounds = [0];
  for (let scale = 1; scale <= 10_000_000; scale *= 10) {
    for (const step of [1, 2, 5]) if (step * scale <= 10_000_000) bounds.push(step * scale * unit);
  }
  return bounds.filter((b) => b <= MAX_MINOR_UNITS);
}

/** An amount no stored price reaches: the top of an open range, in store-currency minor units. */
export const NO_UPPER_BOUND = MAX_MINOR_UNITS + 1;

/**
 * The smallest store-currency amount whose price in the market is at least `marketAmount` (minor units of the
 * market's currency), for a variant without an explicit price there: a market price range is then a range of
 * stored prices, because conversion never lowers a price as the amount grows (src/markets/market-price.ts).
 * NO_UPPER_BOUND when no stored price reaches it.
 */
export function storeAmountAtLeast(marketAmount: number, pricing: MarketPricing): number {
  if (pricing.conversion === null) return marketAmount;
  const { conversion, rule } = pricing.conversion;
  const reaches = (amount: number) => {
    try {
      return convertPrice(amount, conversion, rule) >= marketAmount;
    } catch {
      return true; // past the largest amount the service handles: above any bound
    }
  };
  if (reaches(0)) return 0;
  if (!reaches(MAX_MINOR_UNITS)) return NO_UPPER_BOUND;
  let low = 0; // never reaches
  let high = MAX_MINOR_UNITS; // reaches
  while (high - low > 1) {
    const middle = low + Math.floor((high - low) / 2);
    if (reaches(middle)) high = middle;
    else low = middle;
  }
  return high;
}

// The shop's market: the country/currency the shopper buys in (issue #28). Pure (tested in
// test/storefront-market.test.ts): which market is shown, which serves a country, which currency an answer is in. The
// choice itself is kept by market-store.ts and sent as `X-Market` on every API call.
import type { paths } from '../api/schema.js';

type MarketsAnswer = paths['/market/storefront/api/markets/']['get']['responses'][200]['content']['application/json'];
export type StorefrontMarket = MarketsAnswer[number];

/** The market the shop shows as chosen: the one chosen, if the store still has it, else the default market. */
export function shownMarket(
  markets: readonly StorefrontMarket[],
  chosen: string | undefined,
): StorefrontMarket | undefined {
  return markets.find((m) => m.code === chosen) ?? markets.find((m) => m.is_default) ?? markets[0];
}

/** The market that serves `country`: the one listing it, else the default market (it serves every other country). */
export function marketOfCountry(markets: readonly StorefrontMarket[], country: string): StorefrontMarket | undefined {
  const code = country.toUpperCase();
  return markets.find((m) => m.countries.includes(code)) ?? markets.find((m) => m.is_default);
}

/** "Europe · EUR": how the selector names a market. */
export function marketLabel(market: Pick<StorefrontMarket, 'name' | 'currency'>): string {
  return `${market.name} · ${market.currency}`;
}

/**
 * The currency an answer's amounts are in: the one it carries (`currency`), else `fallback` (the store's, for
 * answers that carry none: the catalog's, until it is priced per market).
 */
export function answerCurrency(answer: object, fallback: string): string {
  const carried = (answer as { currency?: unknown }).currency;
  return typeof carried === 'string' && carried !== '' ? carried : fallback;
}

/**
 * Whether an answer's prices include their tax (its tax is then part of the total, not added to it): what an order
 * says of itself, else what an estimate's market says, else (an estimate in the default market names none) what the
 * default market says.
 */
export function taxIncluded(
  answer: { prices_include_tax?: boolean; market?: { prices_include_tax: boolean } },
  markets: readonly Pick<StorefrontMarket, 'is_default' | 'prices_include_tax'>[],
): boolean {
  return (
    answer.prices_include_tax
    ?? answer.market?.prices_include_tax
    ?? markets.find((m) => m.is_default)?.prices_include_tax
    ?? false
  );
}

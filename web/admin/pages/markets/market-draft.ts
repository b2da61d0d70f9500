// A market's form as typed → the JSON the market API takes, and the API's refusals beside the fields they concern.
// Only what the browser cannot send as typed is converted (countries as a list, a blank step meaning none); the API
// checks the rest (an unknown currency, a rate or rule finer than the currency) and names the field.
// Pure, and imported by its test (test/dashboard-market-form.test.ts): its imports are the generated types only.
import type { components, paths } from '../../../api/schema.js';

type Json<T> = T extends { content: { 'application/json': infer J } } ? J : never;
type Problem = components['schemas']['Problem'];
export type Market = Json<paths['/market/dashboard/api/markets/']['get']['responses'][200]>[number];
export type MarketBody = Json<paths['/market/dashboard/api/markets/']['post']['requestBody']>;
export type MarketPatch = Json<paths['/market/dashboard/api/markets/{id}/']['patch']['requestBody']>;
export type RoundingDirection = NonNullable<MarketBody['rounding_direction']>;

export const ROUNDING_DIRECTIONS: { value: RoundingDirection; label: string }[] = [
  { value: 'nearest', label: 'Nearest' },
  { value: 'up', label: 'Up' },
  { value: 'down', label: 'Down' },
];

/** The form's fields as typed. */
export interface MarketText {
  code: string;
  name: string;
  currency: string;
  prices_include_tax: boolean;
  exchange_rate: string;
  /** Blank: no rounding beyond the currency's precision. */
  rounding_step: string;
  price_ending: string;
  rounding_direction: RoundingDirection;
  /** ISO codes separated by commas or spaces: "DE, FR". */
  countries: string;
  /** None chosen: every enabled plugin. */
  payment_plugins: string[];
  /** None chosen: every active method. */
  shipping_method_ids: number[];
}

export const BLANK_MARKET: MarketText = {
  code: '',
  name: '',
  currency: '',
  prices_include_tax: false,
  exchange_rate: '',
  rounding_step: '',
  price_ending: '0',
  rounding_direction: 'nearest',
  countries: '',
  payment_plugins: [],
  shipping_method_ids: [],
};

/** A stored market as the form shows it. */
export function marketText(market: Market): MarketText {
  return {
    code: market.code,
    name: market.name,
    currency: market.currency,
    prices_include_tax: market.prices_include_tax,
    exchange_rate: market.exchange_rate,
    rounding_step: market.rounding_step ?? '',
    price_ending: market.price_ending,
    rounding_direction: market.rounding_direction,
    countries: market.countries.join(', '),
    payment_plugins: [...market.payment_plugins],
    shipping_method_ids: [...market.shipping_method_ids],
  };
}

/** "de, fr it" → ["DE", "FR", "IT"]; the API checks each code and names the one it refuses (`countries[1]`). */
export function countryCodes(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map((code) => code.toUpperCase());
}

function lists(text: MarketText) {
  return {
    countries: countryCodes(text.countries),
    payment_plugins: text.payment_plugins,
    shipping_method_ids: text.shipping_method_ids,
  };
}

/** The currency and its rule: what the default market takes from STORE_CURRENCY and PRICES_INCLUDE_TAX instead. */
function pricing(text: MarketText) {
  return {
    currency: text.currency.trim().toUpperCase(),
    prices_include_tax: text.prices_include_tax,
    exchange_rate: text.exchange_rate.trim(),
    rounding_step: text.rounding_step.trim() === '' ? null : text.rounding_step.trim(),
    price_ending: text.price_ending.trim() === '' ? '0' : text.price_ending.trim(),
    rounding_direction: text.rounding_direction,
  };
}

/** The body that creates a market. */
export function newMarketBody(text: MarketText): MarketBody {
  return { code: text.code.trim(), name: text.name.trim(), ...pricing(text), ...lists(text) };
}

/**
 * The body that changes `market`: every field of the form (a list sent replaces the stored one). The default market's
 * currency, inclusivity, rate and rounding follow the environment and are not sent (the API refuses them).
 */
export function marketPatch(market: Pick<Market, 'is_default'>, text: MarketText): MarketPatch {
  const named = { code: text.code.trim(), name: text.name.trim(), ...lists(text) };
  return market.is_default ? named : { ...named, ...pricing(text) };
}

/**
 * The problem as the form shows it: a code already in use (409 `market_code_taken`, which names no field) is said
 * beside the code; everything else as the API named it.
 */
export function marketProblem(problem: Problem | undefined): Problem | undefined {
  if (problem?.code !== 'market_code_taken' || (problem.errors ?? []).length > 0) return problem;
  return { ...problem, errors: [{ field: 'code', message: 'is the code of another market' }] };
}

import type { FastifyInstance } from 'fastify';
import { type ChangeFeed, EVERYTHING } from '../db/change-feed.js';
import type { Db } from '../db/client.js';
import { CachedLookup } from '../shared/cached-lookup.js';
import { DomainError } from '../shared/errors.js';
import {
  type CurrencyFormat,
  currencyFormat,
  formatDecimal,
  parseDecimal,
  type RoundingMode,
} from '../shared/money.js';
import { type MarketPricing, priceRoundingOf } from './market-price.js';
import {
  type CheckoutMarketResolution,
  type MarketHints,
  type MarketRef,
  type MarketResolution,
  marketCodeField,
  resolveCheckoutMarket,
  resolveMarket,
} from './market-resolution.js';
import { listMarkets, type MarketRecord } from './markets.repository.js';

/** What a market means to a request (decision 0031): its currency, inclusivity and rate, with what it offers. */
export interface Market extends MarketRef {
  id: number;
  code: string;
  name: string;
  isDefault: boolean;
  countries: readonly string[];
  currency: string;
  pricesIncludeTax: boolean;
  /** Major units of `currency` per major unit of the store currency, canonical (`"151.37"`); `"1"` by default. */
  exchangeRate: string;
  /** How a store-currency price becomes one of this market (none for the store currency). */
  pricing: MarketPricing;
  /** Amounts of `currency` in and out, at its precision. */
  money: CurrencyFormat;
  /** Empty: every enabled plugin. */
  paymentPlugins: readonly string[];
  /** Empty: every active method. */
  shippingMethodIds: readonly number[];
  /**
   * What its prices depend on, as stored (`marketPricingVersion`): a placement priced in it is placed only if the row
   * still says this under its lock.
   */
  pricingVersion: string;
}

/** The columns of a market row its prices depend on, as text (numerics as PostgreSQL writes them). */
export interface MarketPricingColumns {
  currency: string | null;
  pricesIncludeTax: boolean | null;
  exchangeRate: string | null;
  roundingStep: string | null;
  priceEnding: string;
  roundingDirection: string;
}

/**
 * A market's pricing as one comparable string: its currency, inclusivity, rate and rounding rule, canonical
 * (`151.3700000000` and `151.37` are the same rate). Built the same way from the directory's row and from the row a
 * placement reads under lock (placement.decide.ts `priceChanged`), so a rate changed since a quote is seen there.
 */
export function marketPricingVersion(row: MarketPricingColumns): string {
  const decimal = (value: string | null) => (value === null ? '' : formatDecimal(value));
  return [
    row.currency ?? '',
    row.pricesIncludeTax === null ? '' : String(row.pricesIncludeTax),
    decimal(row.exchangeRate),
    decimal(row.roundingStep),
    decimal(row.priceEnding),
    row.roundingDirection,
  ].join('|');
}

/** What a market takes from the store: the default market's currency and inclusivity, the rounding mode. */
export interface StoreMarketContext {
  storeCurrency: string;
  pricesIncludeTax: boolean;
  roundingMode: RoundingMode;
}

/** A stored market as requests use it: the default market is the store's currency and inclusivity at rate 1. */
export function marketOf(record: MarketRecord, store: StoreMarketContext): Market {
  const { row } = record;
  const currency = row.currency ?? store.storeCurrency;
  const rate = row.exchangeRate === null ? '1' : formatDecimal(row.exchangeRate);
  const converts = !row.isDefault && !(currency === store.storeCurrency && rate === '1' && row.roundingStep === null);
  // numeric(28,4) reads back as "100.0000": canonical first, so a JPY step fits its precision.
  const rule = {
    step: row.roundingStep === null ? null : formatDecimal(row.roundingStep),
    ending: formatDecimal(row.priceEnding),
    direction: row.roundingDirection,
  };
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    isDefault: row.isDefault,
    countries: record.countries,
    currency,
    pricesIncludeTax: row.pricesIncludeTax ?? store.pricesIncludeTax,
    exchangeRate: rate,
    pricing: {
      currency,
      conversion: converts
        ? {
            // Parsed once per load of the markets, not per price.
            conversion: { from: store.storeCurrency, to: currency, rate: parseDecimal(rate), mode: store.roundingMode },
            rule: priceRoundingOf(rule, currency),
          }
        : null,
    },
    money: currencyFormat(currency),
    paymentPlugins: record.paymentPlugins,
    shippingMethodIds: record.shippingMethodIds,
    pricingVersion: marketPricingVersion(row),
  };
}

/** The 422 for a market code that names no market of this store, naming where it came from. */
export function unknownMarket(refused: { source: 'header' | 'payload'; code: string }): DomainError {
  const field = marketCodeField(refused.source);
  const code = refused.code.length > 40 ? `${refused.code.slice(0, 40)}…` : refused.code;
  return new DomainError('unknown_market', {
    detail: `${field}: this store has no market "${code}"`,
    errors: [{ field, message: 'names no market of this store' }],
  });
}

/** The tables markets are read from: a change to any clears what is kept. */
const MARKET_TABLES = new Set([
  'markets',
  'market_countries',
  'market_payment_plugins',
  'market_shipping_methods',
  EVERYTHING,
]);

/**
 * The store's markets, kept in this process's memory as reference data is (src/placement/reference-cache.ts): until the
 * change feed announces a change to a market table or this process's own admin write clears them (`invalidate`), never
 * longer than the reference data's TTL, and not at all while the feed is down. A request resolves its market here
 * without a database round trip.
 */
export class MarketDirectory {
  private readonly markets: CachedLookup<'all', Market[]>;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly load: () => Promise<Market[]>,
    options: { feed: ChangeFeed; ttlMs: number },
  ) {
    this.markets = new CachedLookup({ ttlMs: options.ttlMs, maxEntries: 1 }, () => options.feed.live);
    this.unsubscribe = options.feed.subscribe((table) => {
      if (MARKET_TABLES.has(table)) this.invalidate();
    });
  }

  all(): Promise<Market[]> {
    return this.markets.get('all', () => this.load());
  }

  invalidate(): void {
    this.markets.invalidate();
  }

  close(): void {
    this.unsubscribe();
  }

  /** The market of this id (the one an order was placed in); null for none (an order from before markets). */
  async byId(id: number | null): Promise<Market | null> {
    if (id === null) return null;
    return (await this.all()).find((market) => market.id === id) ?? null;
  }

  /** The market a catalog request is in (header, else the default); an unknown code is a 422. */
  async ofRequest(header: string | undefined): Promise<Market> {
    return (await this.requested({ header })).market;
  }

  /**
   * The market a request names (header, else payload), else the one its cart keeps (`keptId`; a market deleted since
   * is none), else the default, with where it came from; an unknown code is a 422.
   */
  async requested(
    hints: Omit<MarketHints, 'kept' | 'shippingCountry'> & { keptId?: number | null },
  ): Promise<Extract<MarketResolution<Market>, { ok: true }>> {
    const kept = await this.byId(hints.keptId ?? null);
    const resolved = resolveMarket(await this.all(), { header: hints.header, payload: hints.payload, kept });
    if (!resolved.ok) throw unknownMarket(resolved);
    return resolved;
  }

  /** Whether the store has markets besides the default: with none, a kept market can only be the default. */
  async hasSeveral(): Promise<boolean> {
    return (await this.all()).length > 1;
  }

  /** The market a checkout is priced in (`resolveCheckoutMarket`); an unknown code is a 422. */
  async ofCheckout(
    hints: Omit<MarketHints, 'kept'> & { keptId?: number | null },
  ): Promise<Extract<CheckoutMarketResolution<Market>, { ok: true }>> {
    const kept = await this.byId(hints.keptId ?? null);
    const resolved = resolveCheckoutMarket(await this.all(), { ...hints, kept });
    if (!resolved.ok) throw unknownMarket(resolved);
    return resolved;
  }
}

/** The X-Market header of a request as sent; sent twice, its values joined (which names no market: a 422). */
export function marketHeader(headers: Record<string, string | string[] | undefined>): string | undefined {
  const value = headers['x-market'];
  return Array.isArray(value) ? value.join(',') : value;
}

/** The app's markets on its database and change feed, closed with the app. */
export function openMarketDirectory(
  app: FastifyInstance,
  deps: { db: Db; feed: ChangeFeed; ttlSeconds: number; store: StoreMarketContext },
): MarketDirectory {
  const directory = new MarketDirectory(
    async () => (await listMarkets(deps.db)).map((record) => marketOf(record, deps.store)),
    { feed: deps.feed, ttlMs: deps.ttlSeconds * 1000 },
  );
  app.addHook('onClose', async () => directory.close());
  return directory;
}

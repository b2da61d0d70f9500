import type { FastifyInstance } from 'fastify';
import { type ChangeFeed, EVERYTHING } from '../db/change-feed.js';
import type { Db } from '../db/client.js';
import { CachedLookup } from '../shared/cached-lookup.js';
import { shippingRateCountries } from './shipping.repository.js';
import { type ShippingDestinations, shippingDestinations } from './shipping.values.js';

/** The tables the destinations are read from: a change to either (migration 0007's triggers) clears them. */
const SOURCES = new Set(['shipping_methods', 'shipping_rates', EVERYTHING]);

/**
 * Where the store ships (`GET /shipping/storefront/api/destinations/`), kept in memory like the quotes' reference data
 * (decision 0002): read once, cleared by this process's own admin writes (`invalidate`) and by the database's change
 * feed for the others and for SQL; nothing is kept while the feed is down, nor longer than the reference TTL.
 */
export interface DestinationDirectory {
  get(): Promise<ShippingDestinations>;
  invalidate(): void;
}

export function openShippingDestinations(
  app: FastifyInstance,
  deps: { db: Db; feed: ChangeFeed; ttlSeconds: number },
): DestinationDirectory {
  const lookup = new CachedLookup<'all', ShippingDestinations>(
    { ttlMs: deps.ttlSeconds * 1000, maxEntries: 1 },
    () => deps.feed.live,
  );
  const unsubscribe = deps.feed.subscribe((table) => {
    if (SOURCES.has(table)) lookup.invalidate();
  });
  app.addHook('onClose', async () => unsubscribe());
  return {
    get: () => lookup.get('all', async () => shippingDestinations(await shippingRateCountries(deps.db))),
    invalidate: () => lookup.invalidate(),
  };
}

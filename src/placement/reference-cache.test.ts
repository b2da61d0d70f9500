import { describe, expect, it } from 'vitest';
import type { ChangeFeed } from '../db/change-feed.js';
import { ReferenceCache } from './reference-cache.js';
import type { QuoteReads } from './order-quote.repository.js';

describe('ReferenceCache', () => {
  function fakeFeed() {
    const listeners = new Set<(table: string) => void>();
    const feed: ChangeFeed & { emit(table: string): void } = {
      live: true,
      subscribe: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
      close: async () => {},
      emit: (table) => {
        for (const l of listeners) l(table);
      },
    };
    return feed;
  }

  function source() {
    const counts = { variants: 0, tax: 0, shipping: 0, promo: 0, automatic: 0, used: 0 };
    const reads: QuoteReads = {
      variantsByAlias: async (aliases) => {
        counts.variants++;
        return new Map(
          aliases.map((alias) => [
            alias,
            {
              id: 1,
              alias,
              name: alias,
              sku: null,
              productId: 1,
              productName: 'P',
              options: [],
              image: null,
              price: 100,
              weightGrams: null,
              trackInventory: true,
              allowBackorder: false,
              purchaseLimitPerOrder: null,
              buyable: true,
              taxClassId: null,
              taxClassName: null,
              pricingVersion: 0,
              productPricingVersion: 0,
            },
          ]),
        );
      },
      taxRatesOf: async () => {
        counts.tax++;
        return [];
      },
      shippingMethodWithRates: async () => {
        counts.shipping++;
        return undefined;
      },
      promotionByCode: async () => {
        counts.promo++;
        return undefined;
      },
      automaticPromotions: async () => {
        counts.automatic++;
        return [];
      },
      timesUsed: async () => {
        counts.used++;
        return 7;
      },
    };
    return { reads, counts };
  }

  async function readAll(reads: QuoteReads) {
    await reads.variantsByAlias(['a']);
    await reads.taxRatesOf('US');
    await reads.shippingMethodWithRates(1);
    await reads.promotionByCode('X');
    await reads.automaticPromotions();
    return reads.timesUsed(1);
  }

  it('forgets only what the announced table feeds, and everything on "*" or an unknown table', async () => {
    const feed = fakeFeed();
    const cache = new ReferenceCache(feed, { ttlMs: 60_000, maxEntries: 100 });
    const { reads, counts } = source();
    const cached = cache.reads(reads);
    await readAll(cached);
    await readAll(cached);
    expect(counts).toEqual({ variants: 1, tax: 1, shipping: 1, promo: 1, automatic: 1, used: 2 });

    feed.emit('tax_rates');
    await readAll(cached);
    expect(counts).toMatchObject({ variants: 1, tax: 2, shipping: 1, promo: 1 });
    feed.emit('product_variants');
    feed.emit('shipping_rates');
    await readAll(cached);
    expect(counts).toMatchObject({ variants: 2, tax: 2, shipping: 2, promo: 1 });
    feed.emit('tax_classes');
    await readAll(cached);
    expect(counts).toMatchObject({ variants: 3, tax: 3, shipping: 2, promo: 1 });
    feed.emit('promotions');
    await readAll(cached);
    expect(counts).toMatchObject({ variants: 3, tax: 3, shipping: 2, promo: 2, automatic: 2 });
    feed.emit('*');
    await readAll(cached);
    expect(counts).toMatchObject({ variants: 4, tax: 4, shipping: 3, promo: 3, automatic: 3 });
    feed.emit('some_new_table');
    await readAll(cached);
    expect(counts).toMatchObject({ variants: 5, tax: 5, shipping: 4, promo: 4, automatic: 4 });
    expect(counts.used).toBe(8);

    cache.close();
    feed.emit('*');
    await readAll(cached);
    expect(counts.variants).toBe(5);
  });
});

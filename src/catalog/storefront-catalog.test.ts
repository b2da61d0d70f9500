import { describe, expect, it } from 'vitest';
import type { ChangeFeed } from '../db/change-feed.js';
import type { Database } from '../db/client.js';
import { batchedStockReads, type CatalogProduct, type CatalogVariant } from './catalog.repository.js';
import { StorefrontCatalog } from './storefront-catalog.js';

function fakeFeed() {
  const listeners = new Set<(table: string) => void>();
  const feed: ChangeFeed & { emit(table: string): void; live: boolean } = {
    live: true,
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    emit: (table) => {
      for (const l of listeners) l(table);
    },
    close: async () => {},
  };
  return feed;
}

const variant = (id: number, fields: Partial<CatalogVariant> = {}): CatalogVariant => ({
  id,
  alias: `v-${id}`,
  name: `V${id}`,
  sku: null,
  price: 1000,
  compareAtPrice: null,
  weightGrams: null,
  trackInventory: true,
  allowBackorder: false,
  purchaseLimitPerOrder: null,
  ...fields,
});

const product = (id: number, variants: CatalogVariant[]): CatalogProduct => ({
  id,
  name: `P${id}`,
  description: '',
  handle: `p-${id}`,
  seoTitle: null,
  seoDescription: null,
  variants,
  categories: [],
  images: [],
  options: [],
});

const unused = () => Promise.reject(new Error('not read in these tests'));

/** A catalog over in-memory "tables", counting what it reads. */
function catalogOver(products: Map<number, CatalogProduct | null>) {
  const feed = fakeFeed();
  const reads = { pages: 0, products: [] as number[][], stock: [] as number[][] };
  const catalog = new StorefrontCatalog(
    {
      pageIds: async ({ limit, after }) => {
        reads.pages++;
        const ids = [...products.keys()].filter((id) => id > after && products.get(id)).sort((a, b) => a - b);
        return { ids: ids.slice(0, limit), next: ids.length > limit ? (ids[limit - 1] ?? null) : null };
      },
      products: async (ids) => {
        reads.products.push(ids);
        return new Map(ids.map((id) => [id, products.get(id) ?? null]));
      },
      stock: async (ids) => {
        reads.stock.push(ids);
        return new Map(ids.map((id) => [id, 7]));
      },
      categoryPageIds: unused,
      collectionPageIds: unused,
      productIdByHandle: unused,
      categories: unused,
      collections: unused,
      collectionByHandle: unused,
    },
    { feed, ttlMs: 60_000 },
  );
  return { catalog, feed, reads };
}

describe('StorefrontCatalog', () => {
  const table = () =>
    new Map<number, CatalogProduct | null>([
      [1, product(1, [variant(11), variant(12, { trackInventory: false })])],
      [2, product(2, [])],
      [3, product(3, [variant(31, { allowBackorder: true })])],
    ]);

  it('reads a page and its products once, and the stock of its counted variants every time', async () => {
    const { catalog, reads } = catalogOver(table());
    for (let i = 0; i < 3; i++) {
      const page = await catalog.page({ limit: 10 });
      expect(page.items.map((p) => p.product.id)).toEqual([1, 3]);
      expect(page.items[0]?.stock.get(11)).toBe(7);
    }
    expect(reads.pages).toBe(1);
    expect(reads.products).toEqual([[1, 2, 3]]);
    // 12 is untracked and 31 backorderable: their stock limits nothing, so it is not read.
    expect(reads.stock).toEqual([[11], [11], [11]]);
  });

  it('shares products between the list and the product page, and reads no stock when none is counted', async () => {
    const { catalog, reads } = catalogOver(table());
    await catalog.page({ limit: 10 });
    const three = await catalog.product(3);
    expect(three?.product.name).toBe('P3');
    expect(await catalog.product(2)).toMatchObject({ product: { variants: [] } });
    expect(await catalog.product(9)).toBeUndefined();
    expect(await catalog.product(9)).toBeUndefined();
    expect(reads.products).toEqual([[1, 2, 3], [9]]);
    expect(reads.stock).toEqual([[11]]);
  });

  it('reads again when products, product_variants or everything is announced, not for other tables', async () => {
    const { catalog, feed, reads } = catalogOver(table());
    await catalog.product(1);
    for (const [announced, readsAfter] of [
      ['tax_rates', 1],
      ['shipping_methods', 1],
      ['products', 2],
      ['product_variants', 3],
      ['*', 4],
    ] as const) {
      feed.emit(announced);
      await catalog.product(1);
      expect(reads.products, announced).toHaveLength(readsAfter);
    }
    catalog.invalidate();
    await catalog.product(1);
    expect(reads.products).toHaveLength(5);
  });

  it('keeps nothing while the feed is down', async () => {
    const { catalog, feed, reads } = catalogOver(table());
    feed.live = false;
    await catalog.page({ limit: 10 });
    await catalog.page({ limit: 10 });
    expect(reads.pages).toBe(2);
  });

  it('leaves out a product archived between reading its page and reading it', async () => {
    const products = table();
    const { catalog } = catalogOver(products);
    await catalog.page({ limit: 1, after: 2 });
    products.set(3, null);
    catalog.invalidate();
    expect((await catalog.page({ limit: 10 })).items.map((p) => p.product.id)).toEqual([1]);
  });

  it('stops listening when closed', async () => {
    const { catalog, feed, reads } = catalogOver(table());
    await catalog.product(1);
    catalog.close();
    feed.emit('products');
    await catalog.product(1);
    expect(reads.products).toHaveLength(1);
  });
});

describe('batchedStockReads', () => {
  it('reads the stock of pages asked for while a read is under way together, each variant once', async () => {
    const statements: unknown[][] = [];
    let release!: () => void;
    const first = new Promise<void>((resolve) => {
      release = resolve;
    });
    const database = {
      run: async (_statement: unknown, values: unknown[]) => {
        statements.push(values[0] as number[]);
        if (statements.length === 1) await first;
        return (values[0] as number[]).map((id) => ({ id, stock: id * 10 }));
      },
    } as unknown as Database;
    const stock = batchedStockReads(database);
    const alone = stock([1, 2]);
    const together = [stock([2, 3]), stock([3, 4])];
    release();
    expect((await alone).get(2)).toBe(20);
    const [a, b] = await Promise.all(together);
    expect([a?.get(3), b?.get(4)]).toEqual([30, 40]);
    expect(statements).toEqual([
      [1, 2],
      [2, 3, 4],
    ]);
  });
});

// The storefront's search (issue #29 item 4) on a catalog of 100,000 variants: 20,000 products of 5 variants each,
// named from a small vocabulary as shops name things ("Rustic Walnut Bowl 1234"), in 12 categories, written with SQL
// in a few statements (the search documents are built by migration 0030's triggers in the same statements).
import type { Scenario, SetupContext } from './scenarios.js';

const PRODUCTS = 20_000;
const VARIANTS_PER_PRODUCT = 5;

const ADJECTIVES = ['classic', 'organic', 'vintage', 'rustic', 'modern', 'soft', 'bold', 'urban', 'alpine', 'coastal'];
const MATERIALS = ['cotton', 'linen', 'wool', 'ceramic', 'oak', 'walnut', 'steel', 'leather', 'bamboo', 'glass'];
const NOUNS = (
  'shirt mug lamp chair table notebook pen bag scarf hat bottle bowl plate candle blanket pillow towel jacket sweater '
  + 'socks apron basket vase clock mirror rug stool shelf tray kettle teapot spoon knife board wallet belt gloves '
  + 'boots umbrella backpack'
).split(' ');
const CATEGORIES = 12;

/** What a shopper types: words, typos, two-word queries, a filter or two; one after another, round and round. */
const QUERIES = [
  'q=mug',
  'q=walnut%20bowl',
  'q=mugg',
  'q=sweter',
  'q=lamp&in_stock=true',
  'q=rustic%20oak',
  'q=blankte',
  'q=leather%20wallet&price_min=50.00&price_max=100.00',
  'q=kettle&category=search-category-3',
  'q=teapot',
  'q=alpine%20wool%20scarf',
  'q=candel',
].map((q) => `/product/storefront/api/search/?${q}&limit=20`);

const list = (words: string[]) => `array[${words.map((w) => `'${w}'`).join(', ')}]`;

/** The catalog, made once per run: categories, products with descriptions, variants with SKUs and stock. */
export function searchCatalog(ctx: SetupContext) {
  return ctx.memo('search-catalog', async () => {
    const started = Date.now();
    await ctx.sql(`insert into categories (name, handle, position)
      select 'Search category ' || g, 'search-category-' || g, g from generate_series(1, ${CATEGORIES}) g`);
    await ctx.sql(`insert into products (name, handle, description)
      select initcap(a || ' ' || m || ' ' || n) || ' ' || g, 'search-product-' || g,
        'A ' || a || ' ' || n || ' made of ' || m || ', for every day.'
      from generate_series(1, ${PRODUCTS}) g,
        lateral (select (${list(ADJECTIVES)})[1 + g % ${ADJECTIVES.length}] as a,
          (${list(MATERIALS)})[1 + (g / 7) % ${MATERIALS.length}] as m,
          (${list(NOUNS)})[1 + (g / 3) % ${NOUNS.length}] as n) w`);
    await ctx.sql(`insert into product_categories (product_id, category_id)
      select p.id, c.id from products p
      join categories c on c.handle = 'search-category-' || (1 + p.id % ${CATEGORIES})
      where p.handle like 'search-product-%'`);
    await ctx.sql(`insert into product_variants (product_id, alias, name, sku, price, stock)
      select p.id, 'search-' || p.id || '-' || v, (array['XS', 'S', 'M', 'L', 'XL'])[v],
        'SRCH-' || p.id || '-' || v, 500 + (p.id * 37 + v * 101) % 19500, (p.id + v) % 4
      from products p cross join generate_series(1, ${VARIANTS_PER_PRODUCT}) v
      where p.handle like 'search-product-%'`);
    // Only the tables filled here (see catalog-100k).
    await ctx.sql('analyze products, product_variants, product_categories, categories, product_search, search_words');
    const [row] = await ctx.sql('select count(*)::int as n from product_variants');
    console.log(`  (search catalog made in ${Date.now() - started} ms; ${String(row?.n)} variants in all)`);
  });
}

export const searchScenarios: Scenario[] = [
  {
    // Twelve queries in turn: single words (about 500 products each), pairs, typos, filters; facets counted each time.
    name: 'search',
    method: 'GET',
    path: QUERIES[0] ?? '',
    async setup(ctx) {
      await searchCatalog(ctx);
      let next = 0;
      return { vary: () => ({ path: QUERIES[next++ % QUERIES.length] }) };
    },
  },
  {
    // No words: one category's 1,667 products by the filters alone, facets over all of them.
    name: 'search-browse',
    method: 'GET',
    path: '/product/storefront/api/search/?category=search-category-5&limit=20',
    async setup(ctx) {
      await searchCatalog(ctx);
      return undefined;
    },
  },
];

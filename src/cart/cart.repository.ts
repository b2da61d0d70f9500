import { and, eq, isNull } from 'drizzle-orm';
import type { Database, Db, Tx } from '../db/client.js';
import { isBuyable } from '../catalog/availability.js';
import { Batcher } from '../shared/batcher.js';
import { carts } from '../db/schema.js';
import { explicitPricesOf } from '../markets/variant-prices.repository.js';
import type { CartLineRow } from './cart.decide.js';

/** A guest's new empty cart, keeping the market its request named (null: none). */
export async function createGuestCart(db: Db, cart: { tokenHash: string; marketId: number | null }): Promise<number> {
  const [row] = await db.insert(carts).values(cart).returning({ id: carts.id });
  if (!row) throw new Error('insert returned no cart');
  return row.id;
}

/**
 * The market a cart keeps (decision 0031): the user's cart, or the open guest cart of a token digest; null when it
 * keeps none or there is no such cart.
 */
export async function keptMarketOfCart(
  db: Db | Tx,
  cart: { userId: number } | { tokenHash: string },
): Promise<number | null> {
  const where =
    'userId' in cart ? eq(carts.userId, cart.userId) : and(eq(carts.tokenHash, cart.tokenHash), isNull(carts.closedAt));
  const [row] = await (db as Db).select({ marketId: carts.marketId }).from(carts).where(where);
  return row?.marketId ?? null;
}

/**
 * A cart as the batched read returns it: the owner it was asked for, the market it keeps, and its lines in the order
 * added, each as an array (JSON made by the database: one row per cart, and one parse).
 */
interface OwnedCartRow {
  owner: string;
  market_id: number | null;
  lines: OwnedCartLine[];
}

/** A line as the database builds it (json_build_array below), field by field. */
type OwnedCartLine = [
  variantId: number,
  quantity: number,
  alias: string,
  name: string,
  productName: string,
  sku: string | null,
  price: string,
  trackInventory: boolean,
  allowBackorder: boolean,
  stock: number,
  purchaseLimitPerOrder: number | null,
  archivedAt: string | null,
  productArchivedAt: string | null,
  explicitPrices: [string, number, number | null][] | null,
];

const ownedCarts = (ownerColumn: string, condition: string) => `
  select ${ownerColumn}::text as owner, c.market_id,
    coalesce(json_agg(json_build_array(i.variant_id, i.quantity, v.alias, v.name, p.name, v.sku, v.price::text,
        v.track_inventory, v.allow_backorder, v.stock, v.purchase_limit_per_order, v.archived_at, p.archived_at,
        (select json_agg(json_build_array(vp.currency, vp.amount, vp.compare_at_amount))
          from variant_prices vp where vp.variant_id = v.id))
      order by i.created_at, i.variant_id) filter (where i.variant_id is not null), '[]') as lines
  from carts c
  left join cart_items i on i.cart_id = c.id
  left join product_variants v on v.id = i.variant_id
  left join products p on p.id = v.product_id
  where ${condition}
  group by c.id`;
const cartsByUsers = { name: 'carts_by_users', text: ownedCarts('c.user_id', 'c.user_id = any($1::integer[])') };
const cartsByTokens = {
  name: 'carts_by_tokens',
  text: ownedCarts('c.token_hash', 'c.token_hash = any($1::text[]) and c.closed_at is null'),
};

/** A cart as read: its lines, and the market it keeps (null: none). */
export interface CartRead {
  lines: CartLineRow[];
  marketId: number | null;
}

/** A line of the batched read as the cart rules take it (positions as in OwnedCartLine). */
function cartLineOf(line: OwnedCartLine): CartLineRow {
  return {
    variantId: line[0],
    quantity: line[1],
    alias: line[2],
    name: line[3],
    productName: line[4],
    sku: line[5],
    price: Number(line[6]),
    trackInventory: line[7],
    allowBackorder: line[8],
    stock: line[9],
    purchaseLimitPerOrder: line[10],
    buyable: isBuyable({ archivedAt: line[11], productArchivedAt: line[12] }),
    explicitPrices: explicitPricesOf(line[13]),
  };
}

/** Owner to cart; owners with no cart are missing. */
function byOwner(rows: OwnedCartRow[]): Map<string, CartRead> {
  return new Map(rows.map((r) => [r.owner, { marketId: r.market_id, lines: r.lines.map(cartLineOf) }]));
}

/** Reads carts in batches of at most this many owners (one statement each). */
const MAX_CARTS_PER_READ = 64;
/** Batched reads under way at once: one keeps batches full under load (docs/decisions/0004). */
const READS_IN_FLIGHT = 1;

/**
 * The cart reads of the hot path. Carts asked for while earlier reads are under way are read
 * together, in one statement (prepared once per connection): a busy store reads many carts per
 * round trip, and a quiet one reads each at once. Each read is a statement of its own, begun after
 * the request arrived, so a customer always sees their own earlier changes.
 */
export function batchedCartReads(database: Database) {
  const batcher = (statement: { name: string; text: string }) =>
    new Batcher<string, CartRead | undefined>(
      async (owners) => {
        const carts = byOwner(await database.run<OwnedCartRow>(statement, [[...new Set(owners)]]));
        return owners.map((owner) => carts.get(owner));
      },
      { maxBatch: MAX_CARTS_PER_READ, maxInFlight: READS_IN_FLIGHT },
    );
  const byUser = batcher(cartsByUsers);
  const byToken = batcher(cartsByTokens);
  return {
    /** The user's cart; empty, keeping no market, when the user has no cart yet. */
    cartOfUser: async (userId: number): Promise<CartRead> =>
      (await byUser.submit(String(userId))) ?? { lines: [], marketId: null },
    /** The open guest cart; undefined when the token names no open cart. */
    cartOfGuest: (tokenHash: string): Promise<CartRead | undefined> => byToken.submit(tokenHash),
  };
}

export type CartReads = ReturnType<typeof batchedCartReads>;

import { and, asc, count, eq, isNull } from 'drizzle-orm';
import type { Database, Db, Tx } from '../db/client.js';
import { isBuyable } from '../catalog/availability.js';
import { Batcher } from '../shared/batcher.js';
import { cartItems, carts, products, productVariants } from '../db/schema.js';

export interface CartLineRow {
  variantId: number;
  quantity: number;
  alias: string;
  name: string;
  productName: string;
  sku: string | null;
  price: number;
  trackInventory: boolean;
  allowBackorder: boolean;
  stock: number;
  purchaseLimitPerOrder: number | null;
  buyable: boolean;
}

/** The open guest cart with this token digest, locked for the transaction. */
export async function lockGuestCart(tx: Tx, tokenHash: string): Promise<number | undefined> {
  const [row] = await tx
    .select({ id: carts.id })
    .from(carts)
    .where(and(eq(carts.tokenHash, tokenHash), isNull(carts.closedAt)))
    .for('update');
  return row?.id;
}

export async function createGuestCart(db: Db | Tx, tokenHash: string): Promise<number> {
  const [row] = await db.insert(carts).values({ tokenHash }).returning({ id: carts.id });
  if (!row) throw new Error('insert returned no cart');
  return row.id;
}

/** The user's cart (created on first use), locked for the transaction. */
export async function lockUserCart(tx: Tx, userId: number): Promise<number> {
  await tx.insert(carts).values({ userId }).onConflictDoNothing({ target: carts.userId });
  const [row] = await tx.select({ id: carts.id }).from(carts).where(eq(carts.userId, userId)).for('update');
  if (!row) throw new Error('user cart vanished');
  return row.id;
}

export async function lockCart(tx: Tx, cartId: number): Promise<void> {
  await tx.select({ id: carts.id }).from(carts).where(eq(carts.id, cartId)).for('update');
}

const lineColumns = {
  variantId: cartItems.variantId,
  quantity: cartItems.quantity,
  alias: productVariants.alias,
  name: productVariants.name,
  productName: products.name,
  sku: productVariants.sku,
  price: productVariants.price,
  trackInventory: productVariants.trackInventory,
  allowBackorder: productVariants.allowBackorder,
  stock: productVariants.stock,
  purchaseLimitPerOrder: productVariants.purchaseLimitPerOrder,
  archivedAt: productVariants.archivedAt,
  productArchivedAt: products.archivedAt,
};

/** A row read with its archive timestamps, with whether it can be bought instead. */
function withBuyable<R extends { archivedAt: Date | string | null; productArchivedAt: Date | string | null }>(row: R) {
  const { archivedAt, productArchivedAt, ...rest } = row;
  return { ...rest, buyable: isBuyable({ archivedAt, productArchivedAt }) };
}
const lineOrder = [asc(cartItems.createdAt), asc(cartItems.variantId)];

/** Every line of a cart with what is needed to price and check it, in the order added. */
export async function cartLines(db: Db | Tx, cartId: number): Promise<CartLineRow[]> {
  const rows = await db
    .select(lineColumns)
    .from(cartItems)
    .innerJoin(productVariants, eq(productVariants.id, cartItems.variantId))
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(eq(cartItems.cartId, cartId))
    .orderBy(...lineOrder);
  return rows.map(withBuyable);
}

/**
 * A cart as the batched read returns it: the owner it was asked for, and its lines in the order
 * added, each as an array (JSON made by the database: one row per cart, and one parse).
 */
interface OwnedCartRow {
  owner: string;
  lines: [
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
  ][];
}

const ownedCarts = (ownerColumn: string, condition: string) => `
  select ${ownerColumn}::text as owner,
    coalesce(json_agg(json_build_array(i.variant_id, i.quantity, v.alias, v.name, p.name, v.sku, v.price::text,
        v.track_inventory, v.allow_backorder, v.stock, v.purchase_limit_per_order, v.archived_at, p.archived_at)
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

/** Owner to lines; owners with no cart are missing. */
function byOwner(rows: OwnedCartRow[]): Map<string, CartLineRow[]> {
  return new Map(
    rows.map((r) => [
      r.owner,
      r.lines.map(
        ([
          variantId,
          quantity,
          alias,
          name,
          productName,
          sku,
          price,
          trackInventory,
          allowBackorder,
          stock,
          purchaseLimitPerOrder,
          archivedAt,
          productArchivedAt,
        ]) => ({
          variantId,
          quantity,
          alias,
          name,
          productName,
          sku,
          price: Number(price),
          trackInventory,
          allowBackorder,
          stock,
          purchaseLimitPerOrder,
          buyable: isBuyable({ archivedAt, productArchivedAt }),
        }),
      ),
    ]),
  );
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
    new Batcher<string, CartLineRow[] | undefined>(
      async (owners) => {
        const carts = byOwner(await database.run<OwnedCartRow>(statement, [[...new Set(owners)]]));
        return owners.map((owner) => carts.get(owner));
      },
      { maxBatch: MAX_CARTS_PER_READ, maxInFlight: READS_IN_FLIGHT },
    );
  const byUser = batcher(cartsByUsers);
  const byToken = batcher(cartsByTokens);
  return {
    /** The user's cart's lines; none when the user has no cart yet. */
    linesOfUser: async (userId: number): Promise<CartLineRow[]> => (await byUser.submit(String(userId))) ?? [],
    /** The open guest cart's lines; undefined when the token names no open cart. */
    linesOfGuest: (tokenHash: string): Promise<CartLineRow[] | undefined> => byToken.submit(tokenHash),
  };
}

export type CartReads = ReturnType<typeof batchedCartReads>;

export async function lineQuantity(tx: Tx, cartId: number, variantId: number): Promise<number | undefined> {
  const [row] = await tx
    .select({ quantity: cartItems.quantity })
    .from(cartItems)
    .where(and(eq(cartItems.cartId, cartId), eq(cartItems.variantId, variantId)));
  return row?.quantity;
}

export async function lineCount(tx: Tx, cartId: number): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(cartItems).where(eq(cartItems.cartId, cartId));
  return row?.n ?? 0;
}

export async function setLine(
  tx: Tx,
  { cartId, variantId, quantity }: { cartId: number; variantId: number; quantity: number },
): Promise<void> {
  await tx
    .insert(cartItems)
    .values({ cartId, variantId, quantity })
    .onConflictDoUpdate({ target: [cartItems.cartId, cartItems.variantId], set: { quantity, updatedAt: new Date() } });
}

export async function deleteLine(tx: Tx, cartId: number, variantId: number): Promise<boolean> {
  const rows = await tx
    .delete(cartItems)
    .where(and(eq(cartItems.cartId, cartId), eq(cartItems.variantId, variantId)))
    .returning({ variantId: cartItems.variantId });
  return rows.length > 0;
}

export async function closeCart(tx: Tx, cartId: number): Promise<void> {
  await tx.delete(cartItems).where(eq(cartItems.cartId, cartId));
  await tx.update(carts).set({ closedAt: new Date(), updatedAt: new Date() }).where(eq(carts.id, cartId));
}

export interface BuyableVariant {
  id: number;
  trackInventory: boolean;
  allowBackorder: boolean;
  stock: number;
  purchaseLimitPerOrder: number | null;
  buyable: boolean;
}

export async function findVariantForCart(db: Db | Tx, variantId: number): Promise<BuyableVariant | undefined> {
  const rows = await db
    .select({
      id: productVariants.id,
      trackInventory: productVariants.trackInventory,
      allowBackorder: productVariants.allowBackorder,
      stock: productVariants.stock,
      purchaseLimitPerOrder: productVariants.purchaseLimitPerOrder,
      archivedAt: productVariants.archivedAt,
      productArchivedAt: products.archivedAt,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(eq(productVariants.id, variantId));
  return rows.map(withBuyable)[0];
}

import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
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
  const [row] = await tx.select({ id: carts.id }).from(carts)
    .where(and(eq(carts.tokenHash, tokenHash), isNull(carts.closedAt))).for('update');
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
  buyable: sql<boolean>`(${productVariants.archivedAt} is null and ${products.archivedAt} is null)`,
};
const lineOrder = [asc(cartItems.createdAt), asc(cartItems.variantId)];

/** Every line of a cart with what is needed to price and check it, in the order added. */
export function cartLines(db: Db | Tx, cartId: number): Promise<CartLineRow[]> {
  return db.select(lineColumns).from(cartItems)
    .innerJoin(productVariants, eq(productVariants.id, cartItems.variantId))
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(eq(cartItems.cartId, cartId))
    .orderBy(...lineOrder);
}

/**
 * The cart reads of the hot path, prepared once per database: a cart's lines by its owner in one
 * round trip (the database parses and plans each statement once per connection).
 */
export function preparedCartReads(db: Db) {
  const joined = () => db.select({ cartId: carts.id, ...lineColumns }).from(carts)
    .innerJoin(cartItems, eq(cartItems.cartId, carts.id))
    .innerJoin(productVariants, eq(productVariants.id, cartItems.variantId))
    .innerJoin(products, eq(products.id, productVariants.productId));
  const byUser = joined().where(eq(carts.userId, sql.placeholder('userId'))).orderBy(...lineOrder).prepare('cart_lines_by_user');
  const byToken = joined().where(and(eq(carts.tokenHash, sql.placeholder('tokenHash')), isNull(carts.closedAt)))
    .orderBy(...lineOrder).prepare('cart_lines_by_token');
  const guestCart = db.select({ id: carts.id }).from(carts)
    .where(and(eq(carts.tokenHash, sql.placeholder('tokenHash')), isNull(carts.closedAt))).prepare('open_guest_cart');
  return {
    linesOfUser: (userId: number): Promise<CartLineRow[]> => byUser.execute({ userId }),
    /** The open guest cart's lines; undefined when the token names no open cart. */
    async linesOfGuest(tokenHash: string): Promise<CartLineRow[] | undefined> {
      const lines = await byToken.execute({ tokenHash });
      if (lines.length > 0) return lines;
      return (await guestCart.execute({ tokenHash })).length > 0 ? [] : undefined;
    },
  };
}

export type CartReads = ReturnType<typeof preparedCartReads>;

export async function lineQuantity(tx: Tx, cartId: number, variantId: number): Promise<number | undefined> {
  const [row] = await tx.select({ quantity: cartItems.quantity }).from(cartItems)
    .where(and(eq(cartItems.cartId, cartId), eq(cartItems.variantId, variantId)));
  return row?.quantity;
}

export async function lineCount(tx: Tx, cartId: number): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(cartItems).where(eq(cartItems.cartId, cartId));
  return row?.n ?? 0;
}

export async function setLine(tx: Tx, cartId: number, variantId: number, quantity: number): Promise<void> {
  await tx.insert(cartItems).values({ cartId, variantId, quantity })
    .onConflictDoUpdate({ target: [cartItems.cartId, cartItems.variantId], set: { quantity, updatedAt: new Date() } });
}

export async function deleteLine(tx: Tx, cartId: number, variantId: number): Promise<boolean> {
  const rows = await tx.delete(cartItems).where(and(eq(cartItems.cartId, cartId), eq(cartItems.variantId, variantId)))
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
  const [row] = await db.select({
    id: productVariants.id,
    trackInventory: productVariants.trackInventory,
    allowBackorder: productVariants.allowBackorder,
    stock: productVariants.stock,
    purchaseLimitPerOrder: productVariants.purchaseLimitPerOrder,
    buyable: sql<boolean>`(${productVariants.archivedAt} is null and ${products.archivedAt} is null)`,
  }).from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(eq(productVariants.id, variantId));
  return row;
}

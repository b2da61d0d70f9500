import { canSupply, sellableUnits } from '../catalog/availability.js';
import type { Db, Tx } from '../db/client.js';
import { DomainError } from '../shared/errors.js';
import type { CurrencyFormat } from '../shared/money.js';
import { hashCartToken, newCartToken } from './cart-token.js';
import {
  type BuyableVariant,
  cartLines,
  type CartLineRow,
  type CartReads,
  closeCart,
  createGuestCart,
  deleteLine,
  findVariantForCart,
  lineCount,
  lineQuantity,
  lockGuestCart,
  lockUserCart,
  setLine,
} from './cart.repository.js';

/** Whose cart: a signed-in user's, or the guest cart named by a token (absent on first use). */
export type CartOwner = { kind: 'user'; userId: number } | { kind: 'guest'; token: string | undefined };

export interface CartLimits {
  maxLineQuantity: number;
  maxCartLines: number;
}

export interface CartDeps {
  db: Db;
  reads: CartReads;
  money: CurrencyFormat;
  limits: CartLimits;
}

export interface CartResult {
  lines: CartLineRow[];
  /** The guest's token (new or as sent); undefined for a user's cart. */
  token: string | undefined;
}

export function lineIsAvailable(line: CartLineRow): boolean {
  return line.buyable && canSupply(line, line.quantity);
}

function checkLineQuantity(variant: BuyableVariant, quantity: number, limits: CartLimits): void {
  if (quantity > limits.maxLineQuantity) {
    throw new DomainError('validation_error', {
      detail: `a cart line holds at most ${limits.maxLineQuantity} units; this would make ${quantity}`,
      errors: [
        {
          field: 'quantity',
          message: `would make the line ${quantity}, over the maximum of ${limits.maxLineQuantity}`,
        },
      ],
    });
  }
  if (variant.purchaseLimitPerOrder !== null && quantity > variant.purchaseLimitPerOrder) {
    throw new DomainError('purchase_limit_exceeded', {
      detail: `at most ${variant.purchaseLimitPerOrder} of variant ${variant.id} can be bought in one order`,
      extra: { product_variant_id: variant.id, limit: variant.purchaseLimitPerOrder },
    });
  }
  const stock = sellableUnits(variant);
  if (stock !== null && !canSupply(variant, quantity)) {
    throw new DomainError('insufficient_stock', {
      detail: `only ${stock} of variant ${variant.id} available; the line would need ${quantity}`,
      extra: { product_variant_id: variant.id, available: stock },
    });
  }
}

async function buyableVariant(tx: Tx, variantId: number): Promise<BuyableVariant> {
  const variant = await findVariantForCart(tx, variantId);
  if (!variant?.buyable)
    throw new DomainError('variant_not_found', { detail: `product variant ${variantId} not found` });
  return variant;
}

const guestCartNotFound = () =>
  new DomainError('cart_not_found', {
    detail: 'no open cart has this X-Cart-Token; send no token to start a new cart',
  });

/** Locks the owner's cart, creating it when `create` allows; undefined when there is none. */
async function lockOwnersCart(
  tx: Tx,
  owner: CartOwner,
  create: boolean,
): Promise<{ cartId: number; token: string | undefined } | undefined> {
  if (owner.kind === 'user') return { cartId: await lockUserCart(tx, owner.userId), token: undefined };
  if (owner.token === undefined) {
    if (!create) return undefined;
    const token = newCartToken();
    return { cartId: await createGuestCart(tx, hashCartToken(token)), token };
  }
  const cartId = await lockGuestCart(tx, hashCartToken(owner.token));
  if (cartId === undefined) throw guestCartNotFound();
  return { cartId, token: owner.token };
}

/** The cart as it is now; a guest's first look creates the cart and its token. */
export async function viewCart(deps: CartDeps, owner: CartOwner): Promise<CartResult> {
  if (owner.kind === 'user') return { lines: await deps.reads.linesOfUser(owner.userId), token: undefined };
  if (owner.token === undefined) {
    const token = newCartToken();
    await createGuestCart(deps.db, hashCartToken(token));
    return { lines: [], token };
  }
  const lines = await deps.reads.linesOfGuest(hashCartToken(owner.token));
  if (lines === undefined) throw guestCartNotFound();
  return { lines, token: owner.token };
}

/**
 * Adds units to a variant's line. The cart row is locked first, so concurrent adds to one cart
 * apply one after another and none is lost.
 */
export function addToCart(
  deps: CartDeps,
  owner: CartOwner,
  input: { variantId: number; quantity: number },
): Promise<CartResult> {
  return deps.db.transaction(async (tx) => {
    const cart = await lockOwnersCart(tx, owner, true);
    if (!cart) throw guestCartNotFound();
    const variant = await buyableVariant(tx, input.variantId);
    const current = await lineQuantity(tx, cart.cartId, input.variantId);
    if (current === undefined && (await lineCount(tx, cart.cartId)) >= deps.limits.maxCartLines) {
      throw new DomainError('cart_full', { detail: `a cart holds at most ${deps.limits.maxCartLines} lines` });
    }
    checkLineQuantity(variant, (current ?? 0) + input.quantity, deps.limits);
    await setLine(tx, { cartId: cart.cartId, variantId: input.variantId, quantity: (current ?? 0) + input.quantity });
    return { lines: await cartLines(tx, cart.cartId), token: cart.token };
  });
}

/** Sets a line's quantity; 0 removes it. The variant must already be in the cart. */
export function updateCartLine(
  deps: CartDeps,
  owner: CartOwner,
  input: { variantId: number; quantity: number },
): Promise<CartResult> {
  return deps.db.transaction(async (tx) => {
    const cart = await lockOwnersCart(tx, owner, false);
    const current = cart === undefined ? undefined : await lineQuantity(tx, cart.cartId, input.variantId);
    if (cart === undefined || current === undefined) {
      throw new DomainError('cart_item_not_found', { detail: `variant ${input.variantId} is not in the cart` });
    }
    if (input.quantity === 0) {
      await deleteLine(tx, cart.cartId, input.variantId);
    } else {
      checkLineQuantity(await buyableVariant(tx, input.variantId), input.quantity, deps.limits);
      await setLine(tx, { cartId: cart.cartId, variantId: input.variantId, quantity: input.quantity });
    }
    return { lines: await cartLines(tx, cart.cartId), token: cart.token };
  });
}

export function removeCartLine(deps: CartDeps, owner: CartOwner, variantId: number): Promise<CartResult> {
  return deps.db.transaction(async (tx) => {
    const cart = await lockOwnersCart(tx, owner, false);
    if (cart === undefined || !(await deleteLine(tx, cart.cartId, variantId))) {
      throw new DomainError('cart_item_not_found', { detail: `variant ${variantId} is not in the cart` });
    }
    return { lines: await cartLines(tx, cart.cartId), token: cart.token };
  });
}

/**
 * Moves a guest cart into the user's cart in one transaction: quantities are added, each line
 * capped at the line maximum, the purchase limit and the stock on hand (a line left with nothing
 * is dropped, as are new lines beyond the cart's line cap). The guest cart is closed, so its token
 * stops working. An unknown, closed or malformed token merges nothing.
 */
export function mergeGuestCart(deps: CartDeps, input: { userId: number; token: string }): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const guestCartId = await lockGuestCart(tx, hashCartToken(input.token));
    if (guestCartId === undefined) return false;
    const userCartId = await lockUserCart(tx, input.userId);
    const [guestLines, userLines] = await Promise.all([cartLines(tx, guestCartId), cartLines(tx, userCartId)]);
    const held = new Map(userLines.map((l) => [l.variantId, l.quantity]));
    let lines = userLines.length;
    for (const line of guestLines) {
      const existing = held.get(line.variantId);
      if (existing === undefined && lines >= deps.limits.maxCartLines) continue;
      const caps = [deps.limits.maxLineQuantity, line.purchaseLimitPerOrder, sellableUnits(line)].filter(
        (c): c is number => c !== null,
      );
      const quantity = Math.min((existing ?? 0) + line.quantity, ...caps);
      if (quantity <= 0) continue;
      if (existing === undefined) lines += 1;
      await setLine(tx, { cartId: userCartId, variantId: line.variantId, quantity });
    }
    await closeCart(tx, guestCartId);
    return true;
  });
}

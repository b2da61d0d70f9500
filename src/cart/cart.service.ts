import type { Db } from '../db/client.js';
import type { LineImageRow, LineOptionRow } from '../db/schema.js';
import type { MarketDirectory } from '../markets/market-directory.js';
import { DomainError } from '../shared/errors.js';
import type { CurrencyFormat } from '../shared/money.js';
import { hashCartToken, newCartToken } from './cart-token.js';
import {
  type CartAddress,
  type CartAnswer,
  type CartLimits,
  type CartLineRow,
  type CartOperation,
  guestCartNotFound,
} from './cart.decide.js';
import { type CartReads, createGuestCart } from './cart.repository.js';
import { CartWriteBusy, type CartWriter } from './cart.write.js';

export type { CartLimits, CartLineRow } from './cart.decide.js';
export { lineIsAvailable } from './cart.decide.js';

/** Whose cart: a signed-in user's, or the guest cart named by a token (absent on first use). */
export type CartOwner = { kind: 'user'; userId: number } | { kind: 'guest'; token: string | undefined };

export interface CartDeps {
  db: Db;
  reads: CartReads;
  writer: CartWriter;
  money: CurrencyFormat;
  /** The store's markets: a cart is shown in its request's market, else the one it keeps (decision 0031). */
  markets: MarketDirectory;
  limits: CartLimits;
  /** Longest a cart write waits for the database (queue, connection, the cart's lock) before a 503. */
  writeTimeoutMs: number;
  /**
   * What each line shows besides its figures (option values, image), by variant alias: the quotes' variants, read
   * from the reference cache (one statement for all the aliases it does not hold, none when it holds them all).
   */
  shownItems: (aliases: string[]) => Promise<ReadonlyMap<string, ShownItem>>;
}

/** What a cart line shows of its variant besides its figures, as an order line would keep it. */
export interface ShownItem {
  options: readonly LineOptionRow[];
  image: LineImageRow | null;
}

export interface CartResult {
  lines: CartLineRow[];
  /** The market the cart keeps (null: none). */
  marketId: number | null;
  /** The guest's token (new or as sent); undefined for a user's cart. */
  token: string | undefined;
}

/** A line operation's input: the variant, and the market its request named (the cart keeps it). */
interface LineInput {
  variantId: number;
  marketId?: number;
}

/** Seconds a client is asked to wait before trying a refused cart write again. */
const BUSY_RETRY_AFTER_SECONDS = 2;

/** Writes one operation with its batch; the 503 when the database could not take it in time (nothing written). */
async function write(deps: CartDeps, operation: CartOperation): Promise<CartAnswer> {
  try {
    return await deps.writer.write(operation, Date.now() + deps.writeTimeoutMs);
  } catch (err) {
    if (!(err instanceof CartWriteBusy)) throw err;
    throw new DomainError('database_unavailable', {
      detail:
        err.reason === 'queue_full'
          ? 'too many cart changes are waiting for the database; the cart was not changed, try again shortly'
          : 'the database did not take the cart change in time; the cart was not changed, try again shortly',
      headers: { 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) },
    });
  }
}

/** The cart's lines after a line operation, or its refusal thrown. */
async function linesAfter(deps: CartDeps, operation: CartOperation, token: string | undefined): Promise<CartResult> {
  const answer = await write(deps, operation);
  if (!answer.ok) throw answer.error;
  if (!('lines' in answer)) throw new Error(`a ${operation.kind} was answered without lines`);
  return { lines: answer.lines, marketId: answer.marketId, token };
}

/** The cart's address for a write; undefined for a guest with no token when the operation must not create one. */
function addressOf(owner: CartOwner, create: boolean): { cart: CartAddress; token: string | undefined } | undefined {
  if (owner.kind === 'user') return { cart: { userId: owner.userId }, token: undefined };
  if (owner.token !== undefined)
    return { cart: { tokenHash: hashCartToken(owner.token), isNew: false }, token: owner.token };
  if (!create) return undefined;
  const token = newCartToken();
  return { cart: { tokenHash: hashCartToken(token), isNew: true }, token };
}

/**
 * The cart as it is now; a guest's first look creates the cart and its token, keeping the market the request named
 * (`marketId`). A look at an existing cart writes nothing, its market included.
 */
export async function viewCart(
  deps: CartDeps,
  owner: CartOwner,
  named: { marketId?: number } = {},
): Promise<CartResult> {
  if (owner.kind === 'user') return { ...(await deps.reads.cartOfUser(owner.userId)), token: undefined };
  if (owner.token === undefined) {
    const token = newCartToken();
    const marketId = named.marketId ?? null;
    await createGuestCart(deps.db, { tokenHash: hashCartToken(token), marketId });
    return { lines: [], marketId, token };
  }
  const cart = await deps.reads.cartOfGuest(hashCartToken(owner.token));
  if (cart === undefined) throw guestCartNotFound();
  return { ...cart, token: owner.token };
}

/**
 * Adds units to a variant's line; a guest without a token gets a new cart. Concurrent adds to one cart are applied
 * one after another (in one batch, or under the cart's lock), so none is lost.
 */
export function addToCart(
  deps: CartDeps,
  owner: CartOwner,
  input: LineInput & { quantity: number },
): Promise<CartResult> {
  const address = addressOf(owner, true) as { cart: CartAddress; token: string | undefined };
  return linesAfter(deps, { kind: 'add', cart: address.cart, ...input }, address.token);
}

const itemNotFound = (variantId: number) =>
  new DomainError('cart_item_not_found', { detail: `variant ${variantId} is not in the cart` });

/** Sets a line's quantity; 0 removes it. The variant must already be in the cart. */
export async function updateCartLine(
  deps: CartDeps,
  owner: CartOwner,
  input: LineInput & { quantity: number },
): Promise<CartResult> {
  const address = addressOf(owner, false);
  if (!address) throw itemNotFound(input.variantId);
  return linesAfter(deps, { kind: 'set', cart: address.cart, ...input }, address.token);
}

export async function removeCartLine(deps: CartDeps, owner: CartOwner, input: LineInput): Promise<CartResult> {
  const address = addressOf(owner, false);
  if (!address) throw itemNotFound(input.variantId);
  return linesAfter(deps, { kind: 'remove', cart: address.cart, ...input }, address.token);
}

/**
 * Moves a guest cart into the user's cart in one transaction (the rule: `merge` in cart.decide.ts). An unknown,
 * closed or malformed token merges nothing.
 */
export async function mergeGuestCart(deps: CartDeps, input: { userId: number; token: string }): Promise<boolean> {
  const answer = await write(deps, { kind: 'merge', userId: input.userId, guestTokenHash: hashCartToken(input.token) });
  if (!answer.ok) throw answer.error;
  return 'merged' in answer && answer.merged;
}

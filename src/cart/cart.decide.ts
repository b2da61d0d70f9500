import { canSupply, isBuyable, sellableUnits } from '../catalog/availability.js';
import type { ExplicitPrices } from '../markets/variant-prices.repository.js';
import { DomainError } from '../shared/errors.js';

/**
 * The cart's rules, decided in TypeScript for a batch of writes (cart.write.ts reads the carts under lock, calls
 * `decideCartBatch`, and writes what it answers). No I/O: the carts and variants come in, each operation's answer and
 * the rows to change come out. Operations on one cart are applied in the order they arrived, each seeing the ones
 * before it, so none is lost (docs/decisions/0024-cart-writes-in-batches.md).
 */

export interface CartLimits {
  maxLineQuantity: number;
  maxCartLines: number;
}

/** What a cart line shows and what its rules need: the variant as it is now, and the line's quantity. */
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
  /** The variant's explicit prices in other currencies (decision 0031); absent or null: none. */
  explicitPrices?: ExplicitPrices | null;
}

/** A variant as the cart's rules read it (a line without its quantity). */
export type CartVariant = Omit<CartLineRow, 'quantity'>;

/** A variant row with its archive timestamps, as the repository reads it. */
export type CartVariantRead = Omit<CartVariant, 'buyable'> & {
  archivedAt: Date | string | null;
  productArchivedAt: Date | string | null;
};

export function cartVariantOf({ archivedAt, productArchivedAt, ...rest }: CartVariantRead): CartVariant {
  return { ...rest, buyable: isBuyable({ archivedAt, productArchivedAt }) };
}

/** Whether the line can be bought as it stands: its variant is on sale and the stock covers it. */
export function lineIsAvailable(line: CartLineRow): boolean {
  return line.buyable && canSupply(line, line.quantity);
}

/** Which cart an operation writes: a user's (created on first use), a guest's by token digest, or a new guest cart. */
export type CartAddress = { userId: number } | { tokenHash: string; isNew: boolean };

/**
 * The market a line operation's request named (its X-Market header or payload `market`, decision 0031): the cart
 * keeps it once the operation succeeds. Absent: the cart keeps the market it had.
 */
interface NamedMarket {
  marketId?: number;
}

export type CartOperation =
  /** Adds units to the variant's line, creating it. */
  | ({ kind: 'add'; cart: CartAddress; variantId: number; quantity: number } & NamedMarket)
  /** Sets the quantity of a line already in the cart; 0 removes it. */
  | ({ kind: 'set'; cart: CartAddress; variantId: number; quantity: number } & NamedMarket)
  | ({ kind: 'remove'; cart: CartAddress; variantId: number } & NamedMarket)
  /** Moves the open guest cart's lines into the user's cart and closes the guest cart. */
  | { kind: 'merge'; userId: number; guestTokenHash: string };

export type CartAnswer =
  /** The cart right after the operation: its lines, and the market it keeps (null: none). */
  | { ok: true; lines: CartLineRow[]; marketId: number | null }
  /** A merge: whether there was an open guest cart to merge. */
  | { ok: true; merged: boolean }
  | { ok: false; error: DomainError };

/** A cart read under lock: its id, owner, kept market and lines (variant and quantity) in the order added. */
export interface LockedCart {
  id: number;
  userId: number | null;
  tokenHash: string | null;
  marketId: number | null;
  lines: { variantId: number; quantity: number }[];
}

export interface CartBatchState {
  carts: LockedCart[];
  /** The variants of the operations and of the locked carts' lines. */
  variants: Map<number, CartVariant>;
  limits: CartLimits;
}

/** A line after the batch: `seq` is set when it took a new place at the end of the cart in this batch. */
interface WorkingLine {
  variantId: number;
  quantity: number;
  seq: number | undefined;
}

interface WorkingCart {
  /** Undefined for a guest cart this batch creates. */
  id: number | undefined;
  tokenHash: string | null;
  initial: Map<number, number>;
  lines: WorkingLine[];
  closed: boolean;
  initialMarketId: number | null;
  marketId: number | null;
}

/** The rows a batch changes. A new line's or moved line's `seq` orders it after the lines before it. */
export interface CartChanges {
  newGuestCarts: { tokenHash: string; marketId: number | null }[];
  inserts: { cartId: number | null; tokenHash: string | null; variantId: number; quantity: number; seq: number }[];
  updates: { cartId: number; variantId: number; quantity: number; seq: number | null }[];
  deletes: { cartId: number; variantId: number }[];
  closeCartIds: number[];
  /** Existing carts that keep another market now. */
  marketChanges: { cartId: number; marketId: number | null }[];
}

export const noCartChanges = (c: CartChanges) =>
  c.newGuestCarts.length
    + c.inserts.length
    + c.updates.length
    + c.deletes.length
    + c.closeCartIds.length
    + c.marketChanges.length
  === 0;

export const guestCartNotFound = () =>
  new DomainError('cart_not_found', {
    detail: 'no open cart has this X-Cart-Token; send no token to start a new cart',
  });

const variantNotFound = (variantId: number) =>
  new DomainError('variant_not_found', { detail: `product variant ${variantId} not found` });

const itemNotFound = (variantId: number) =>
  new DomainError('cart_item_not_found', { detail: `variant ${variantId} is not in the cart` });

/** Refuses a line quantity past the line maximum, the variant's purchase limit, or its stock. */
export function checkLineQuantity(variant: CartVariant, quantity: number, limits: CartLimits): void {
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
      detail: `at most ${variant.purchaseLimitPerOrder} of variant ${variant.variantId} can be bought in one order`,
      extra: { product_variant_id: variant.variantId, limit: variant.purchaseLimitPerOrder },
    });
  }
  const stock = sellableUnits(variant);
  if (stock !== null && !canSupply(variant, quantity)) {
    throw new DomainError('insufficient_stock', {
      detail: `only ${stock} of variant ${variant.variantId} available; the line would need ${quantity}`,
      extra: { product_variant_id: variant.variantId, available: stock },
    });
  }
}

/**
 * The quantity a merged line gets: the user's and the guest's added, capped at the line maximum, the purchase limit
 * and the stock on hand (0 or less: the line is dropped).
 */
export function mergedQuantity(variant: CartVariant, quantities: number, limits: CartLimits): number {
  const caps = [limits.maxLineQuantity, variant.purchaseLimitPerOrder, sellableUnits(variant)].filter(
    (c): c is number => c !== null,
  );
  return Math.min(quantities, ...caps);
}

/** The batch's carts as the operations change them, and the answer of each operation. */
class WorkingCarts {
  private readonly byUser = new Map<number, WorkingCart>();
  private readonly byToken = new Map<string, WorkingCart>();
  private readonly all: WorkingCart[] = [];
  private seq = 0;

  constructor(private readonly state: CartBatchState) {
    for (const cart of state.carts) {
      const working: WorkingCart = {
        id: cart.id,
        tokenHash: cart.tokenHash,
        initial: new Map(cart.lines.map((l) => [l.variantId, l.quantity])),
        lines: cart.lines.map((l) => ({ ...l, seq: undefined })),
        closed: false,
        initialMarketId: cart.marketId,
        marketId: cart.marketId,
      };
      this.all.push(working);
      if (cart.userId !== null) this.byUser.set(cart.userId, working);
      if (cart.tokenHash !== null) this.byToken.set(cart.tokenHash, working);
    }
  }

  /** The open cart at `address`; a new guest cart is begun here. Undefined when a guest token names no open cart. */
  cart(address: CartAddress): WorkingCart | undefined {
    if ('userId' in address) {
      const cart = this.byUser.get(address.userId);
      // The lock statement creates every user cart the batch names first.
      if (!cart) throw new Error(`user ${address.userId}'s cart was not read under lock`);
      return cart;
    }
    const found = this.byToken.get(address.tokenHash);
    if (found || !address.isNew) return found?.closed ? undefined : found;
    const begun: WorkingCart = {
      id: undefined,
      tokenHash: address.tokenHash,
      initial: new Map(),
      lines: [],
      closed: false,
      initialMarketId: null,
      marketId: null,
    };
    this.all.push(begun);
    this.byToken.set(address.tokenHash, begun);
    return begun;
  }

  variant(variantId: number): CartVariant | undefined {
    return this.state.variants.get(variantId);
  }

  /** Sets the variant's line to `quantity` (a new line goes last); 0 removes it. */
  setLine(cart: WorkingCart, variantId: number, quantity: number): void {
    const at = cart.lines.findIndex((l) => l.variantId === variantId);
    if (quantity <= 0) {
      if (at !== -1) cart.lines.splice(at, 1);
    } else if (at !== -1) {
      (cart.lines[at] as WorkingLine).quantity = quantity;
    } else {
      cart.lines.push({ variantId, quantity, seq: this.seq++ });
    }
  }

  close(cart: WorkingCart): void {
    cart.lines = [];
    cart.closed = true;
  }

  /** The cart's lines as answered: each with its variant as read in this batch. */
  linesOf(cart: WorkingCart): CartLineRow[] {
    return cart.lines.flatMap((line) => {
      const variant = this.variant(line.variantId);
      return variant ? [{ ...variant, quantity: line.quantity }] : [];
    });
  }

  changes(): CartChanges {
    const changes: CartChanges = {
      newGuestCarts: [],
      inserts: [],
      updates: [],
      deletes: [],
      closeCartIds: [],
      marketChanges: [],
    };
    for (const cart of this.all) {
      if (cart.id === undefined) newCartChanges(cart, changes);
      else cartChanges(cart, cart.id, changes);
    }
    return changes;
  }
}

/** A guest cart this batch begins: created with its lines, if any is left. */
function newCartChanges(cart: WorkingCart, changes: CartChanges): void {
  if (cart.lines.length === 0) return;
  changes.newGuestCarts.push({ tokenHash: cart.tokenHash as string, marketId: cart.marketId });
  for (const line of cart.lines) {
    const { variantId, quantity } = line;
    changes.inserts.push({ cartId: null, tokenHash: cart.tokenHash, variantId, quantity, seq: line.seq ?? 0 });
  }
}

/** An existing cart: its new lines, changed or moved lines, removed lines, and its closing. */
function cartChanges(cart: WorkingCart, cartId: number, changes: CartChanges): void {
  for (const line of cart.lines) {
    const { variantId, quantity } = line;
    const before = cart.initial.get(variantId);
    if (before === undefined) {
      changes.inserts.push({ cartId, tokenHash: null, variantId, quantity, seq: line.seq ?? 0 });
    } else if (before !== quantity || line.seq !== undefined) {
      changes.updates.push({ cartId, variantId, quantity, seq: line.seq ?? null });
    }
  }
  const kept = new Set(cart.lines.map((l) => l.variantId));
  for (const variantId of cart.initial.keys()) {
    if (!kept.has(variantId)) changes.deletes.push({ cartId, variantId });
  }
  if (cart.closed) changes.closeCartIds.push(cartId);
  else if (cart.marketId !== cart.initialMarketId) changes.marketChanges.push({ cartId, marketId: cart.marketId });
}

function quantityIn(cart: WorkingCart, variantId: number): number | undefined {
  return cart.lines.find((l) => l.variantId === variantId)?.quantity;
}

function add(carts: WorkingCarts, op: Extract<CartOperation, { kind: 'add' }>, limits: CartLimits): CartLineRow[] {
  const cart = carts.cart(op.cart);
  if (!cart) throw guestCartNotFound();
  const variant = carts.variant(op.variantId);
  if (!variant?.buyable) throw variantNotFound(op.variantId);
  const current = quantityIn(cart, op.variantId);
  if (current === undefined && cart.lines.length >= limits.maxCartLines) {
    throw new DomainError('cart_full', { detail: `a cart holds at most ${limits.maxCartLines} lines` });
  }
  checkLineQuantity(variant, (current ?? 0) + op.quantity, limits);
  carts.setLine(cart, op.variantId, (current ?? 0) + op.quantity);
  return carts.linesOf(cart);
}

function set(carts: WorkingCarts, op: Extract<CartOperation, { kind: 'set' }>, limits: CartLimits): CartLineRow[] {
  const cart = carts.cart(op.cart);
  if (!cart || quantityIn(cart, op.variantId) === undefined) throw itemNotFound(op.variantId);
  if (op.quantity > 0) {
    const variant = carts.variant(op.variantId);
    if (!variant?.buyable) throw variantNotFound(op.variantId);
    checkLineQuantity(variant, op.quantity, limits);
  }
  carts.setLine(cart, op.variantId, op.quantity);
  return carts.linesOf(cart);
}

function remove(carts: WorkingCarts, op: Extract<CartOperation, { kind: 'remove' }>): CartLineRow[] {
  const cart = carts.cart(op.cart);
  if (!cart || quantityIn(cart, op.variantId) === undefined) throw itemNotFound(op.variantId);
  carts.setLine(cart, op.variantId, 0);
  return carts.linesOf(cart);
}

/**
 * Quantities are added, each line capped (`mergedQuantity`); new lines beyond the cart's line cap are dropped. The
 * guest cart is closed, so its token stops working. A token that names no open cart merges nothing. The user's cart
 * takes the guest cart's market when it kept one: what the customer was shopping in a moment ago (decision 0031).
 */
function merge(carts: WorkingCarts, op: Extract<CartOperation, { kind: 'merge' }>, limits: CartLimits): boolean {
  const guest = carts.cart({ tokenHash: op.guestTokenHash, isNew: false });
  if (!guest) return false;
  const user = carts.cart({ userId: op.userId }) as WorkingCart;
  for (const line of carts.linesOf(guest)) {
    const existing = quantityIn(user, line.variantId);
    if (existing === undefined && user.lines.length >= limits.maxCartLines) continue;
    const quantity = mergedQuantity(line, (existing ?? 0) + line.quantity, limits);
    if (quantity > 0) carts.setLine(user, line.variantId, quantity);
  }
  if (guest.marketId !== null) user.marketId = guest.marketId;
  carts.close(guest);
  return true;
}

/** A line operation's answer: the cart's lines, and its market, now the one the request named if it named one. */
function answered(
  carts: WorkingCarts,
  op: Exclude<CartOperation, { kind: 'merge' }>,
  lines: CartLineRow[],
): CartAnswer {
  const cart = carts.cart(op.cart) as WorkingCart;
  if (op.marketId !== undefined) cart.marketId = op.marketId;
  return { ok: true, lines, marketId: cart.marketId };
}

function apply(carts: WorkingCarts, op: CartOperation, limits: CartLimits): CartAnswer {
  switch (op.kind) {
    case 'add':
      return answered(carts, op, add(carts, op, limits));
    case 'set':
      return answered(carts, op, set(carts, op, limits));
    case 'remove':
      return answered(carts, op, remove(carts, op));
    case 'merge':
      return { ok: true, merged: merge(carts, op, limits) };
  }
}

/**
 * Applies a batch's operations in order to the carts read under lock: each answered as if it had run alone after the
 * ones before it, a refused one changing nothing. Answers each operation's outcome and the rows to write.
 */
export function decideCartBatch(
  operations: readonly CartOperation[],
  state: CartBatchState,
): { answers: CartAnswer[]; changes: CartChanges } {
  const carts = new WorkingCarts(state);
  const answers = operations.map((op): CartAnswer => {
    try {
      return apply(carts, op, state.limits);
    } catch (err) {
      if (err instanceof DomainError) return { ok: false, error: err };
      throw err;
    }
  });
  return { answers, changes: carts.changes() };
}

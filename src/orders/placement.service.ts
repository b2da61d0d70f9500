import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Principal } from '../auth/tokens.js';
import { hashCartToken } from '../cart/cart-token.js';
import type { Database, Tx } from '../db/client.js';
import { presentPricedOrder } from '../pricing/pricing.presenter.js';
import { normalisePromoCode } from '../pricing/promo-code.eligibility.js';
import { DomainError, type FieldError } from '../shared/errors.js';
import { onceForKey, requestHash, type StoredResponse } from './idempotency.js';
import type { OrderPayload } from './order-payload.schema.js';
import { directQuoteReads, type QuoteReads } from './order-quote.repository.js';
import { type OrderQuote, type QuoteDeps, quoteOrder } from './order-quote.service.js';
import type { ReferenceCache } from './reference-cache.js';
import {
  insertOrder, lockCartByTokenHash, lockCartOfUser, lockPromoCode, recordRedemption, reduceCart, stockShortages, takeStockStatement,
} from './placement.repository.js';

/** `any`: /create/ (guest or signed in); `guest`: /guest-user-order-create/; `user`: /user-order-create/. */
export type PlacementKind = 'any' | 'guest' | 'user';

export interface PlacementDeps extends QuoteDeps {
  database: Database;
  cache: ReferenceCache;
}

export interface PlacementRequest {
  kind: PlacementKind;
  principal: Principal | null;
  payload: OrderPayload;
  /** The guest's X-Cart-Token, whose cart loses what was ordered. */
  cartToken?: string;
  idempotencyKey?: string;
}

export const hashOrderToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The lines whose stock is counted: tracked variants that can't be backordered. */
function stockLimitedLines(quote: OrderQuote) {
  return quote.priced.lines.filter((line) => {
    const v = quote.variants.get(line.alias);
    return v !== undefined && v.trackInventory && !v.allowBackorder;
  });
}

type LimitedLines = ReturnType<typeof stockLimitedLines>;

/** The 409 for a placement the stock could not cover, naming every line that is short. */
function insufficientStock(limited: LimitedLines, short: Map<number, number>): DomainError {
  const shortages = limited.filter((l) => short.has(l.variantId))
    .map((l) => ({ product_variant_id: l.variantId, alias: l.alias, requested: l.quantity, available: short.get(l.variantId) ?? 0 }));
  const first = shortages[0];
  return new DomainError('insufficient_stock', {
    detail: shortages.map((s) => `only ${s.available} of "${s.alias}" (variant ${s.product_variant_id}) available, ${s.requested} ordered`).join('; '),
    errors: shortages.map((s) => ({ field: `variants[alias=${s.alias}].quantity`, message: `only ${s.available} available` })),
    extra: { product_variant_id: first?.product_variant_id, available: first?.available, shortages },
  });
}

/** What a placement did in its transaction, and the stock statement to commit with. */
interface Placed {
  response: StoredResponse;
  limited: LimitedLines;
  takeStock: string | undefined;
}

async function place(deps: PlacementDeps, tx: Tx, request: PlacementRequest, principal: Principal | null): Promise<Placed> {
  const { payload } = request;
  // Placements with one code queue on its row, so its limits hold under concurrency.
  const promo = payload.promocode !== undefined && !payload.custom_discount_amount
    ? await lockPromoCode(tx, normalisePromoCode(payload.promocode)) : undefined;
  // Tax and shipping from memory (read in this transaction when not there); the variants, whose
  // prices are charged, and the locked promo code, whose usage is counted, from the transaction.
  const direct = directQuoteReads(tx);
  const reads: QuoteReads = {
    ...deps.cache.reads(direct),
    variantsByAlias: direct.variantsByAlias,
    promoByCode: async () => promo,
    timesUsed: async () => promo?.timesUsed ?? 0,
  };
  const quote = await quoteOrder(deps, tx, principal, payload, { reads, estimate: false });
  const { priced, customer } = quote;
  if (customer.userId === null && customer.email === null) {
    throw new DomainError('email_required', {
      detail: 'a guest order needs an email in the shipping or billing address',
      errors: [{ field: 'shipping_address.email', message: 'is required for a guest order' }],
    });
  }
  const limited = stockLimitedLines(quote);
  const reserved = new Set(limited.map((l) => l.variantId));

  const orderToken = customer.userId === null ? randomBytes(32).toString('base64url') : undefined;
  const order = await insertOrder(tx, {
    alias: randomUUID(),
    userId: customer.userId,
    email: customer.email,
    orderTokenHash: orderToken ? hashOrderToken(orderToken) : null,
    placedBy: payload.customer_id !== undefined ? principal?.userId ?? null : null,
    // Nothing to pay (a 100 % discount, free items): the order is paid as placed.
    paymentStatus: priced.totalMinor === 0 ? 'paid' : 'unpaid',
    currency: priced.currency,
    pricesIncludeTax: priced.pricesIncludeTax,
    subtotal: priced.subtotalMinor,
    discount: priced.discountMinor,
    discountName: priced.discountName,
    promoCodeId: quote.promo?.id ?? null,
    promoCode: quote.promo?.code ?? null,
    shippingMethodId: quote.shippingMethodId,
    shippingName: priced.shippingName,
    shippingFee: priced.shippingFeeMinor,
    shippingTaxRate: priced.shippingTaxRate,
    shippingTax: priced.shippingTaxMinor,
    estimatedTax: priced.estimatedTaxMinor,
    totalWithoutTax: priced.totalWithoutTaxMinor,
    total: priced.totalMinor,
    totalItems: priced.totalItems,
    shippingAddress: quote.shippingAddress,
    billingAddress: quote.billingAddress,
    note: quote.note,
  }, priced.lines.map((line) => ({
    variantId: line.variantId,
    productId: line.productId,
    alias: line.alias,
    name: line.name,
    sku: quote.variants.get(line.alias)?.sku ?? null,
    quantity: line.quantity,
    unitPrice: line.unitPriceMinor,
    subtotal: line.subtotalMinor,
    discount: line.discountMinor,
    taxClassName: line.taxClass?.name ?? null,
    taxRate: line.taxRate,
    tax: line.taxMinor,
    total: line.totalMinor,
    stockReserved: reserved.has(line.variantId),
  })));
  if (quote.promo) {
    await recordRedemption(tx, { promoCodeId: quote.promo.id, orderId: order.id, userId: customer.userId, email: customer.email });
  }

  const cartId = customer.userId !== null
    ? await lockCartOfUser(tx, customer.userId)
    : request.cartToken ? await lockCartByTokenHash(tx, hashCartToken(request.cartToken)) : undefined;
  if (cartId !== undefined) {
    await reduceCart(tx, cartId, priced.lines.map((l) => ({ variantId: l.variantId, quantity: l.quantity })));
  }
  // Last, sent with the COMMIT: the stock rows stay locked until commit, and a popular variant's
  // row is the hot spot every placement of it queues on.
  const takeStock = takeStockStatement(limited.map((l) => ({ variantId: l.variantId, quantity: l.quantity })));

  const response = {
    status: 201,
    body: {
      ...presentPricedOrder(priced),
      order_id: order.id,
      order_alias: order.alias,
      status: order.status,
      payment_status: order.paymentStatus,
      ...(orderToken ? { order_token: orderToken } : {}),
    },
  };
  return { response, limited, takeStock };
}

/**
 * Places an order in one transaction: stock, promo-code usage, the order with its lines and
 * address snapshots, and the cart update commit together or not at all.
 */
export function placeOrder(deps: PlacementDeps, request: PlacementRequest): Promise<StoredResponse> {
  if (request.kind === 'user' && !request.principal) {
    throw new DomainError('unauthorized', { detail: 'this store takes orders from signed-in customers only; sign in first' });
  }
  // The guest operation places a guest order whoever calls it.
  const principal = request.kind === 'guest' ? null : request.principal;
  return retryOnConflict(async () => {
    let placed: Placed | undefined;
    try {
      return await deps.database.transactionEndingWith(async (tx) => {
        const work = async () => {
          placed = await place(deps, tx, request, principal);
          return placed.response;
        };
        const result = request.idempotencyKey === undefined
          ? await work()
          // A repeated key answers with the stored response: then nothing is placed, nor stock taken.
          : await onceForKey(tx, { scope: principal ? `user:${principal.userId}` : 'guest', key: request.idempotencyKey, requestHash: requestHash(request.kind, request.payload) }, work);
        return { result, last: placed?.takeStock };
      });
    } catch (err) {
      const short = stockShortages(err);
      if (short && placed) throw insufficientStock(placed.limited, short);
      throw err;
    }
  });
}

/**
 * Runs a transaction again when PostgreSQL aborted it for a deadlock or a serialization failure
 * (two orders taking the same variants in different orders can meet head-on); nothing of the
 * aborted attempt was written.
 */
async function retryOnConflict<T>(run: () => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      const code = (err as { code?: unknown; cause?: { code?: unknown } }).code ?? (err as { cause?: { code?: unknown } }).cause?.code;
      if (attempt >= attempts || (code !== '40P01' && code !== '40001')) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}

import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Principal } from '../auth/tokens.js';
import { hashCartToken } from '../cart/cart-token.js';
import type { Database } from '../db/client.js';
import { presentPricedOrder } from '../pricing/pricing.presenter.js';
import type { PromoCodeRule } from '../pricing/promo-code.eligibility.js';
import { DomainError } from '../shared/errors.js';
import { placementScope, requestHash, type StoredResponse, storedResponse } from './idempotency.js';
import type { OrderPayload } from './order-payload.schema.js';
import type { QuoteReads } from './order-quote.repository.js';
import { type OrderQuote, type QuoteDeps, quoteOrder } from './order-quote.service.js';
import {
  DatabaseBusy, IdempotencyKeyInFlux, IdempotencyKeyReused, isConflict, type PlacementWrite, type PlacementWriter,
  PricesChanged, PromoCodeRefused, StockShort,
} from './placement.repository.js';
import type { ReferenceCache } from './reference-cache.js';

/** `any`: /create/ (guest or signed in); `guest`: /guest-user-order-create/; `user`: /user-order-create/. */
export type PlacementKind = 'any' | 'guest' | 'user';

export interface PlacementDeps extends QuoteDeps {
  database: Database;
  cache: ReferenceCache;
  /** The quote reads on the database, uncached (prepared statements on the pool). */
  source: QuoteReads;
  /** Where placements are written (in batches). */
  writer: PlacementWriter;
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

/** Attempts at a placement whose prices changed under it before it gives up with a 409. */
const PRICING_ATTEMPTS = 3;
/** Attempts at a placement PostgreSQL aborted for a deadlock or a serialization failure. */
const CONFLICT_ATTEMPTS = 4;

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

/** The 422 for a promo code its limits refused under its row lock (the quote's check passed just before). */
function promoRefused(code: string, rule: PromoCodeRule): DomainError {
  const name = `promo code ${code}`;
  const details: Partial<Record<PromoCodeRule, string>> = {
    inactive: `${name} is not active`,
    redemption_limit: `${name} has been redeemed the maximum number of times`,
    new_customers_only: `${name} is for a customer's first order only`,
    customer_limit: `${name} has been used as many times as one customer may use it`,
  };
  const detail = details[rule] ?? `${name} cannot be used for this order`;
  return new DomainError('promo_code_invalid', { detail, extra: { rule } });
}

/** Seconds a client is asked to wait before trying a refused placement again. */
const BUSY_RETRY_AFTER_SECONDS = 5;

/** The 503 for a placement the database could not take in time; nothing of it was written. */
function databaseBusy(err: DatabaseBusy): DomainError {
  return new DomainError('database_unavailable', {
    detail: err.reason === 'queue_full'
      ? 'too many orders are waiting for the database; nothing was placed, try again shortly'
      : 'the database did not take the order in time; nothing was placed, try again shortly',
    headers: { 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) },
  });
}

/** A placement priced and ready to write, with what is needed to explain a refusal. */
interface Prepared {
  write: PlacementWrite;
  quote: OrderQuote;
  limited: LimitedLines;
  body: Record<string, unknown>;
}

async function prepare(deps: PlacementDeps, request: PlacementRequest, principal: Principal | null, reads: QuoteReads,
  idempotency: PlacementWrite['idempotency']): Promise<Prepared> {
  const { payload } = request;
  const quote = await quoteOrder(deps, deps.database.db, principal, payload, { reads });
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
  // Nothing to pay (a 100 % discount, free items): the order is paid as placed.
  const paymentStatus = priced.totalMinor === 0 ? 'paid' : 'unpaid';
  const alias = randomUUID();
  const body = {
    ...presentPricedOrder(priced),
    order_alias: alias,
    payment_status: paymentStatus,
    ...(orderToken ? { order_token: orderToken } : {}),
  };
  const cart = customer.userId !== null
    ? { userId: customer.userId }
    : request.cartToken ? { tokenHash: hashCartToken(request.cartToken) } : undefined;
  const write: PlacementWrite = {
    idempotency,
    pricedAs: [...quote.variants.values()],
    promoCodeId: quote.promo?.id ?? null,
    order: {
      alias,
      user_id: customer.userId,
      email: customer.email,
      order_token_hash: orderToken ? hashOrderToken(orderToken) : null,
      placed_by: payload.customer_id !== undefined ? principal?.userId ?? null : null,
      payment_status: paymentStatus,
      currency: priced.currency,
      prices_include_tax: priced.pricesIncludeTax,
      subtotal: priced.subtotalMinor,
      discount: priced.discountMinor,
      discount_name: priced.discountName,
      promo_code_id: quote.promo?.id ?? null,
      promo_code: quote.promo?.code ?? null,
      shipping_method_id: quote.shippingMethodId,
      shipping_name: priced.shippingName,
      shipping_fee: priced.shippingFeeMinor,
      shipping_tax_rate: priced.shippingTaxRate,
      shipping_tax: priced.shippingTaxMinor,
      estimated_tax: priced.estimatedTaxMinor,
      total_without_tax: priced.totalWithoutTaxMinor,
      total: priced.totalMinor,
      total_items: priced.totalItems,
      shipping_address: quote.shippingAddress,
      billing_address: quote.billingAddress,
      note: quote.note,
    },
    lines: priced.lines.map((line) => ({
      variant_id: line.variantId,
      product_id: line.productId,
      alias: line.alias,
      name: line.name,
      sku: quote.variants.get(line.alias)?.sku ?? null,
      quantity: line.quantity,
      unit_price: line.unitPriceMinor,
      subtotal: line.subtotalMinor,
      discount: line.discountMinor,
      tax_class_name: line.taxClass?.name ?? null,
      tax_rate: line.taxRate,
      tax: line.taxMinor,
      total: line.totalMinor,
      stock_reserved: reserved.has(line.variantId),
    })),
    cart,
    stock: limited.map((l) => ({ variantId: l.variantId, quantity: l.quantity })),
    response: body,
  };
  return { write, quote, limited, body };
}

/**
 * Places an order: priced in this process (reference data from memory, as the estimate), then
 * written in one transaction (`PlacementWriter`: one statement with the placements that arrived
 * meanwhile). Everything is checked before anything is written (the idempotency claim, that the
 * variants' prices still hold, promo-code limits under the code's row lock, stock under the
 * variants' row locks), then the order with its lines and address snapshots, the cart update and
 * the stock commit together; a refused order writes nothing. When the catalog changed under the
 * quote, the order is priced again from the database.
 */
export async function placeOrder(deps: PlacementDeps, request: PlacementRequest): Promise<StoredResponse> {
  // One deadline for the whole placement, retries included.
  const deadline = Date.now() + deps.config.placementTimeoutMs;
  if (request.kind === 'user' && !request.principal) {
    throw new DomainError('unauthorized', { detail: 'this store takes orders from signed-in customers only; sign in first' });
  }
  // The guest operation places a guest order whoever calls it.
  const principal = request.kind === 'guest' ? null : request.principal;
  const idempotency = request.idempotencyKey === undefined ? undefined : {
    scope: placementScope(principal?.userId ?? null, request.payload),
    key: request.idempotencyKey,
    requestHash: requestHash(request.kind, request.payload),
  };
  // A key already answered gets its answer back without pricing anything (the catalog may have
  // moved on since). A key that is not yet answered is claimed as the order is written.
  if (idempotency) {
    const stored = await storedResponse(deps.database.db, idempotency);
    if (stored) return stored;
  }
  const cached = deps.cache.reads(deps.source);
  for (let attempt = 1; ; attempt++) {
    // After a refusal for changed prices, every read goes to the database.
    const prepared = await prepare(deps, request, principal, attempt === 1 ? cached : deps.source, idempotency);
    try {
      const outcome = await deps.writer.write(prepared.write, deadline);
      if (outcome.replayed) return outcome.stored;
      return { status: 201, body: { ...prepared.body, order_id: outcome.orderId, status: outcome.status } };
    } catch (err) {
      if (err instanceof DatabaseBusy) throw databaseBusy(err);
      if (err instanceof StockShort) throw insufficientStock(prepared.limited, err.available);
      if (err instanceof PromoCodeRefused) throw promoRefused(prepared.quote.promo?.code ?? '', err.rule);
      if (err instanceof IdempotencyKeyReused) {
        throw new DomainError('idempotency_key_reused', { detail: 'this Idempotency-Key was used with a different request; use a new key' });
      }
      const retry = err instanceof PricesChanged ? attempt < PRICING_ATTEMPTS
        : err instanceof IdempotencyKeyInFlux || isConflict(err) ? attempt < CONFLICT_ATTEMPTS : false;
      if (!retry) {
        if (err instanceof PricesChanged) {
          throw new DomainError('conflict', { detail: 'the catalog kept changing while the order was placed; retry' });
        }
        if (err instanceof IdempotencyKeyInFlux) {
          throw new DomainError('conflict', { detail: 'a request with this Idempotency-Key is in progress; retry shortly' });
        }
        throw err;
      }
      if (err instanceof PricesChanged) deps.cache.invalidate('product_variants');
      else await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}

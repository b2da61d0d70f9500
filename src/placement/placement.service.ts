import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { canonicalEmail } from '../auth/email.js';
import type { Principal } from '../http/auth.js';
import { hashCartToken } from '../cart/cart-token.js';
import type { Database } from '../db/client.js';
import { promotionOrder } from '../pricing/promotions/promotion-order.js';
import { stockIsCounted } from '../catalog/availability.js';
import { DomainError, invalidField } from '../shared/errors.js';
import { MoneyFormatError } from '../shared/money.js';
import { requestHash, type StoredResponse, storedResponse } from '../orders/idempotency.js';
import type { OrderPayload } from './order-payload.schema.js';
import type { QuoteReads } from './order-quote.repository.js';
import { type OrderQuote, type QuoteDeps, quoteOrder } from './order-quote.service.js';
import { lineValues, orderValues, variantOfLine } from './placed-order.js';
import { placementEvents } from './placement-events.js';
import { hashOrderToken } from '../orders/order-token.js';
import { presentQuote } from './quote.presenter.js';
import type { IdempotencyClaim, Refusal } from './placement.decide.js';
import {
  DatabaseBusy,
  isConflict,
  type PlacementOutcome,
  type PlacementWrite,
  type PlacementWriter,
} from './placement.write.js';
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
  /** The X-Market header, as sent. */
  marketHeader?: string;
}

/**
 * Whose keys a placement's key is one of: a signed-in caller's own, or a guest's by the order's
 * email (trimmed, lower-cased, hashed), so two guests who happen to pick the same key get
 * neither each other's order nor a 422. The email is part of the payload, so a retry with the
 * same payload always lands in the same scope. A guest payload without an email is refused
 * anyway (email_required), and refusals are not remembered.
 */
export function placementScope(
  userId: number | null,
  payload: { shipping_address?: { email?: string }; billing_address?: { email?: string } },
): string {
  if (userId !== null) return `user:${userId}`;
  const email = canonicalEmail(payload.shipping_address?.email?.trim() || payload.billing_address?.email || '');
  return email === '' ? 'guest' : `guest:${createHash('sha256').update(email).digest('hex')}`;
}

/** Attempts at a placement whose prices changed under it before it gives up with a 409. */
const PRICING_ATTEMPTS = 3;
/** Attempts at a placement PostgreSQL aborted for a deadlock or a serialization failure. */
const CONFLICT_ATTEMPTS = 4;

/** The 409 for a placement the stock could not cover, naming every line that is short. */
function insufficientStock(quote: OrderQuote, short: { variantId: number; available: number }[]): DomainError {
  const available = new Map(short.map((s) => [s.variantId, s.available]));
  const shortages = quote.priced.lines
    .filter((l) => available.has(l.variantId))
    .map((l) => ({
      product_variant_id: l.variantId,
      alias: l.alias,
      requested: l.quantity,
      available: available.get(l.variantId) ?? 0,
    }));
  const first = shortages[0];
  return new DomainError('insufficient_stock', {
    detail: shortages
      .map(
        (s) =>
          `only ${s.available} of "${s.alias}" (variant ${s.product_variant_id}) available, `
          + `${s.requested} ordered`,
      )
      .join('; '),
    errors: shortages.map((s) => ({
      field: `variants[alias=${s.alias}].quantity`,
      message: `only ${s.available} available`,
    })),
    extra: { product_variant_id: first?.product_variant_id, available: first?.available, shortages },
  });
}

/** A placement priced and ready to write, with what is needed to explain a refusal. */
interface PricedPlacement {
  write: PlacementWrite;
  quote: OrderQuote;
  body: Record<string, unknown>;
}

/** Prices the payload (`quoteOrder`) and builds what its placement writes: the order, its lines, its events. */
async function pricePlacement(
  deps: PlacementDeps,
  {
    request,
    principal,
    reads,
    idempotency,
  }: {
    request: PlacementRequest;
    principal: Principal | null;
    reads: QuoteReads;
    idempotency: IdempotencyClaim | undefined;
  },
): Promise<PricedPlacement> {
  const { payload } = request;
  // A code's uses are counted under its row lock as the batch is decided, with the quote's messages (decision 0025).
  const quote = await quoteOrder(deps, {
    db: deps.database.db,
    principal,
    payload,
    reads,
    codeCountedUnderLock: true,
    marketHeader: request.marketHeader,
    cartToken: request.cartToken,
  });
  const { priced, customer } = quote;
  if (customer.userId === null && customer.email === null) {
    throw new DomainError('email_required', {
      detail: 'a guest order needs an email in the shipping or billing address',
      errors: [{ field: 'shipping_address.email', message: 'is required for a guest order' }],
    });
  }
  const orderToken = customer.userId === null ? randomBytes(32).toString('base64url') : undefined;
  // Nothing to pay (a 100 % discount, free items): the order is paid as placed.
  const paymentStatus: 'paid' | 'unpaid' = priced.totalMinor === 0 ? 'paid' : 'unpaid';
  const alias = randomUUID();
  // Own fields before a spread, here and below: V8 copies a spread object fast, but adds each key written after one
  // on a slow path (docs/benchmarks.md), and these run for every order. None of them is a key of the spread object.
  const body = {
    order_alias: alias,
    payment_status: paymentStatus,
    ...(orderToken ? { order_token: orderToken } : {}),
    ...presentQuote(quote),
  };
  const cart =
    customer.userId !== null
      ? { userId: customer.userId }
      : request.cartToken
        ? { tokenHash: hashCartToken(request.cartToken) }
        : undefined;
  const order = orderValues(quote, {
    alias,
    orderTokenHash: orderToken ? hashOrderToken(orderToken) : null,
    placedBy: payload.customer_id !== undefined ? (principal?.userId ?? null) : null,
    paymentStatus,
  });
  const lines = lineValues(quote);
  const events = placementEvents(order, lines);
  const write: PlacementWrite = {
    decide: {
      idempotency,
      buyer: customer,
      lines: priced.lines.map((line) => {
        const v = variantOfLine(quote, line.alias);
        return {
          variantId: v.id,
          quantity: line.quantity,
          pricingVersion: v.pricingVersion,
          productPricingVersion: v.productPricingVersion,
        };
      }),
      promotions: quote.promotions.map((p) => ({ id: p.id, version: p.version, byCode: p.code !== null })),
      order: promotionOrder(priced.currency, priced.lines),
      market: quote.market.isDefault ? null : { id: quote.market.id, pricingVersion: quote.market.pricingVersion },
      storeCurrency: deps.money.currency,
    },
    countedVariantIds: [...quote.variants.values()].filter(stockIsCounted).map((v) => v.id),
    order,
    lines,
    cart,
    response: body,
    events,
  };
  return { write, quote, body };
}

/**
 * The price guarantee (SPEC section 10): the payload's `expected_total`, if sent, must be the quote's total to the
 * minor unit; else the 409 carries the new figures.
 */
function checkExpectedTotal(payload: OrderPayload, quote: OrderQuote): void {
  if (payload.expected_total === undefined) return;
  const { money } = quote.market;
  let expected: number;
  try {
    expected = money.parse(payload.expected_total);
    if (expected < 0) throw new MoneyFormatError('must not be negative');
  } catch (err) {
    if (err instanceof MoneyFormatError) throw invalidField('expected_total', `${err.message} (${money.currency})`);
    throw err;
  }
  if (expected === quote.priced.totalMinor) return;
  const figures = presentQuote(quote);
  throw new DomainError('total_changed', {
    detail:
      `the order's total is ${figures.total} ${quote.priced.currency}, `
      + `not the ${payload.expected_total} expected; nothing was placed`,
    extra: { expected_total: payload.expected_total, estimate: figures },
  });
}

/** The answer to a refusal the decision gave; undefined when the placement should be priced and tried again. */
function refusalError(refusal: Refusal, quote: OrderQuote, lastAttempt: boolean): DomainError | undefined {
  switch (refusal.reason) {
    case 'insufficient_stock':
      return insufficientStock(quote, refusal.shortages);
    case 'promo_code_refused':
      return new DomainError('promo_code_invalid', { detail: refusal.detail, extra: { rule: refusal.rule } });
    case 'key_reused':
      return new DomainError('idempotency_key_reused', {
        detail: 'this Idempotency-Key was used with a different request; use a new key',
      });
    case 'price_changed':
      return lastAttempt
        ? new DomainError('conflict', { detail: 'the catalog kept changing while the order was placed; retry' })
        : undefined;
    case 'key_in_flux':
      return lastAttempt
        ? new DomainError('conflict', { detail: 'a request with this Idempotency-Key is in progress; retry shortly' })
        : undefined;
  }
}

/** Seconds a client is asked to wait before trying a refused placement again. */
const BUSY_RETRY_AFTER_SECONDS = 5;

/** The 503 for a placement the database could not take in time; nothing of it was written. */
function databaseBusy(err: DatabaseBusy): DomainError {
  return new DomainError('database_unavailable', {
    detail:
      err.reason === 'queue_full'
        ? 'too many orders are waiting for the database; nothing was placed, try again shortly'
        : 'the database did not take the order in time; nothing was placed, try again shortly',
    headers: { 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) },
  });
}

/** Who places the order: the signed-in customer (required by the customer operation), or nobody for a guest order. */
function placingPrincipal(request: PlacementRequest): Principal | null {
  if (request.kind === 'user' && !request.principal) {
    throw new DomainError('unauthorized', {
      detail: 'this store takes orders from signed-in customers only; sign in first',
    });
  }
  // The guest operation places a guest order whoever calls it.
  return request.kind === 'guest' ? null : request.principal;
}

/** The Idempotency-Key the placement claims, in its scope (the customer or the guest's email), if one was sent. */
function idempotencyClaim(request: PlacementRequest, principal: Principal | null): IdempotencyClaim | undefined {
  if (request.idempotencyKey === undefined) return undefined;
  return {
    scope: placementScope(principal?.userId ?? null, request.payload),
    key: request.idempotencyKey,
    // The header's market is part of what was asked: the same key and payload in another market is another request.
    requestHash: requestHash(
      request.kind,
      request.marketHeader === undefined ? request.payload : { ...request.payload, market: request.marketHeader },
    ),
  };
}

/**
 * Writes a priced placement with its batch; 'conflict' (after a short random wait) when the database reports a
 * serialization conflict or deadlock and attempts are left, so the caller prices it again.
 */
async function writePlacement(
  deps: PlacementDeps,
  { write, deadline, attempt }: { write: PlacementWrite; deadline: number; attempt: number },
): Promise<PlacementOutcome | 'conflict'> {
  try {
    return await deps.writer.write(write, deadline);
  } catch (err) {
    if (err instanceof DatabaseBusy) throw databaseBusy(err);
    if (!isConflict(err) || attempt >= CONFLICT_ATTEMPTS) throw err;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    return 'conflict';
  }
}

/**
 * Places an order: priced in this process (reference data from memory, as the estimate), then
 * written in one transaction with the placements that arrived meanwhile (`PlacementWriter`), where
 * `decideBatch` checks it under lock before anything is written; a refused order writes nothing.
 * When the catalog changed under the quote, the order is priced again from the database.
 */
export async function placeOrder(deps: PlacementDeps, request: PlacementRequest): Promise<StoredResponse> {
  // One deadline for the whole placement, retries included.
  const deadline = Date.now() + deps.config.placementTimeoutMs;
  const principal = placingPrincipal(request);
  const idempotency = idempotencyClaim(request, principal);
  // A key already answered gets its answer back without pricing anything (the catalog may have
  // moved on since). A key that is not yet answered is claimed as the order is written.
  if (idempotency) {
    const stored = await storedResponse(deps.database.db, idempotency);
    if (stored) return stored;
  }
  const cached = deps.cache.reads(deps.source);
  for (let attempt = 1; ; attempt++) {
    // After a refusal for changed prices, every read goes to the database.
    const placement = await pricePlacement(deps, {
      request,
      principal,
      reads: attempt === 1 ? cached : deps.source,
      idempotency,
    });
    checkExpectedTotal(request.payload, placement.quote);
    const outcome = await writePlacement(deps, { write: placement.write, deadline, attempt });
    if (outcome === 'conflict') continue;
    if (outcome.outcome === 'replayed') return outcome.stored;
    if (outcome.outcome === 'placed') {
      return { status: 201, body: { order_id: outcome.orderId, status: outcome.status, ...placement.body } };
    }
    const { refusal } = outcome;
    const attempts = refusal.reason === 'price_changed' ? PRICING_ATTEMPTS : CONFLICT_ATTEMPTS;
    const error = refusalError(refusal, placement.quote, attempt >= attempts);
    if (error) throw error;
    if (refusal.reason === 'price_changed') {
      // Priced again from what is committed: the variants from the database, the markets read again.
      deps.cache.invalidate('product_variants');
      deps.markets.invalidate();
    } else await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
  }
}

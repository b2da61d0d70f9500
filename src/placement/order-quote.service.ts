import { addressSnapshot, findOwnAddress } from '../addresses/addresses.repository.js';
import { hashCartToken } from '../cart/cart-token.js';
import { keptMarketOfCart } from '../cart/cart.repository.js';
import { normaliseCountry } from '../addresses/address.schema.js';
import { normaliseEmail } from '../auth/email.js';
import type { Principal } from '../http/auth.js';
import { findUserById } from '../auth/users.repository.js';
import type { Config } from '../config.js';
import type { Db, Tx } from '../db/client.js';
import type { AddressSnapshot } from '../db/schema.js';
import { priceOrder } from '../pricing/pricing.calculator.js';
import type { CustomDiscount, PricedOrder, PricingLine, PricingShipping } from '../pricing/pricing.types.js';
import { promotionOrder } from '../pricing/promotions/promotion-order.js';
import { orderWeightGrams, selectShippingRate } from '../pricing/shipping-rate.selector.js';
import { resolveTaxRates } from '../pricing/tax-rate.selector.js';
import { DomainError, type FieldError, invalidField } from '../shared/errors.js';
import { type CurrencyFormat, MoneyFormatError, MoneyOverflowError } from '../shared/money.js';
import { lineDisplayName } from '../orders/order-line.js';
import type { Market, MarketDirectory } from '../markets/market-directory.js';
import { offersShippingMethod, shippingRateIn, totalInStoreCurrency, unitPriceIn } from '../markets/market-checkout.js';
import type { InlineAddressInput, OrderPayload } from './order-payload.schema.js';
import { type CandidatePromotion, candidatePromotions } from './order-promotions.js';
import type { Promotion } from '../pricing/promotions/promotion.types.js';
import { defaultAddress, type OrderableVariant, type QuoteReads, type QuoteTaxRate } from './order-quote.repository.js';

export interface QuoteDeps {
  config: Config;
  money: CurrencyFormat;
  /** The store's markets, from memory: the market an order is priced in (decision 0031). */
  markets: MarketDirectory;
  now?: () => Date;
}

/** What to quote: a payload, for whom, read through which connection. */
export interface QuoteRequest {
  db: Db | Tx;
  principal: Principal | null;
  payload: OrderPayload;
  /** Where variants, tax rates, shipping rates and promo codes come from (memory, or the database). */
  reads: QuoteReads;
  /**
   * The caller checks a code's counted rules itself, under the code's row lock (placement's `decideBatch`): the quote
   * then reads no counts for the code's promotion (decision 0025). The estimate leaves it unset.
   */
  codeCountedUnderLock?: boolean;
  /** The request's X-Market header, as sent. */
  marketHeader?: string;
  /** A guest's X-Cart-Token: without a market named, the order is priced in the market its cart keeps. */
  cartToken?: string;
}

/** Who the order is for: a user (signed in, or chosen by an admin), or a guest known by email. */
export interface OrderCustomer {
  userId: number | null;
  email: string | null;
}

/** Everything a placement needs besides the figures: resolved references and snapshots. */
export interface OrderQuote {
  priced: PricedOrder;
  /** The market it is priced in (its currency and inclusivity are `priced`'s); whether the request asked another. */
  market: Market;
  marketChanged: boolean;
  customer: OrderCustomer;
  shippingAddress: AddressSnapshot | null;
  billingAddress: AddressSnapshot | null;
  shippingMethodId: number | null;
  /**
   * The promotions that applied, each with the version of it priced (placement re-checks them under lock) and its
   * terms as priced (the order keeps them).
   */
  promotions: { id: number; code: string | null; version: number; promotion: Promotion }[];
  /** The catalog rows of the lines, by alias (stock and limits are checked again at placement). */
  variants: Map<string, OrderableVariant>;
  note: string;
  /** The total back in the store currency (`totalInStoreCurrency`): for reports, computed here so the estimate fails
   * as the placement would on a total too large for it. */
  totalInStoreCurrency: number;
}

function snapshot(input: InlineAddressInput, field: string): AddressSnapshot {
  const text = (v: string | undefined) => (v ?? '').trim();
  const email = text(input.email);
  return {
    first_name: text(input.first_name),
    last_name: text(input.last_name),
    street_address: text(input.street_address),
    city: text(input.city),
    postal_code: text(input.postal_code),
    state: text(input.state),
    country: normaliseCountry(input.country, `${field}.country`),
    email: email === '' ? '' : normaliseEmail(email, `${field}.email`),
    phone_number: text(input.phone_number),
  };
}

function amount(money: CurrencyFormat, text: string, field: string): number {
  try {
    const minor = money.parse(text);
    if (minor < 0) throw new MoneyFormatError('must not be negative');
    return minor;
  } catch (err) {
    if (err instanceof MoneyFormatError) throw invalidField(field, `${err.message} (${money.currency})`);
    throw err;
  }
}

/**
 * The payload's `currency`, if sent, must be the market's (decision 0031): a client showing one currency is never
 * charged in another, and no request chooses the currency (Vendure GHSA-wm63-7627-ch33).
 */
function checkCurrency(payload: OrderPayload, market: Market): void {
  if (payload.currency === undefined) return;
  const sent = payload.currency.trim().toUpperCase();
  if (sent === market.currency) return;
  throw new DomainError('currency_mismatch', {
    detail:
      `market "${market.code}" sells in ${market.currency}, `
      + `not ${payload.currency.slice(0, 8)}; nothing was priced`,
    errors: [{ field: 'currency', message: `is not ${market.currency}, the currency of market "${market.code}"` }],
    extra: { market: market.code, currency: market.currency },
  });
}

/** Admin-only fields and the pairs of fields that exclude each other (SPEC 6). */
function checkPayloadRules(payload: OrderPayload, principal: Principal | null): void {
  const adminOnly = (['customer_id', 'custom_shipping_amount', 'custom_discount_amount'] as const).filter(
    (f) => payload[f] !== undefined,
  );
  if (adminOnly.length > 0 && principal?.role !== 'admin') {
    throw new DomainError('forbidden', {
      detail: `${adminOnly.join(', ')} may only be sent by an admin`,
      errors: adminOnly.map((field) => ({ field, message: 'is for admins only' })),
    });
  }
  const exclusive: [keyof OrderPayload, keyof OrderPayload][] = [
    ['shipping_address', 'shipping_address_id'],
    ['billing_address', 'billing_address_id'],
    ['customer_id', 'shipping_address'],
    ['customer_id', 'shipping_address_id'],
    ['promocode', 'custom_discount_amount'],
    ['shipping_method_id', 'custom_shipping_amount'],
  ];
  for (const [a, b] of exclusive) {
    if (payload[a] !== undefined && payload[b] !== undefined) {
      throw new DomainError('validation_error', {
        detail: `send ${a} or ${b}, not both`,
        errors: [{ field: b, message: `cannot be sent together with ${a}` }],
      });
    }
  }
}

async function resolveAddress(
  db: Db | Tx,
  {
    inline,
    id,
    ownerId,
    field,
  }: {
    inline: InlineAddressInput | undefined;
    id: number | undefined;
    ownerId: number | null;
    field: string;
  },
) {
  if (inline) return snapshot(inline, field);
  if (id === undefined) return null;
  const row = ownerId === null ? undefined : await findOwnAddress(db as Db, ownerId, id);
  if (!row)
    throw new DomainError('not_found', {
      detail: `address ${id} not found`,
      errors: [{ field: `${field}_id`, message: 'names none of your addresses' }],
    });
  return addressSnapshot(row);
}

/** Sums lines with the same alias and finds their variants; unknown or unbuyable ones are a 422. */
async function resolveLines(
  reads: QuoteReads,
  payload: OrderPayload,
  { max: maxLineQuantity, market }: { max: number; market: Market },
) {
  const quantities = new Map<string, { quantity: number; index: number }>();
  payload.variants.forEach((line, index) => {
    const seen = quantities.get(line.alias);
    quantities.set(line.alias, { quantity: (seen?.quantity ?? 0) + line.quantity, index: seen?.index ?? index });
  });
  const aliases = [...quantities.keys()];
  const variants = await reads.variantsByAlias(aliases);
  const unknown: FieldError[] = [];
  const unbuyable: FieldError[] = [];
  const lines: PricingLine[] = [];
  for (const [alias, { quantity, index }] of quantities) {
    const variant = variants.get(alias);
    if (!variant)
      unknown.push({ field: `variants[${index}].alias`, message: `no product variant has the alias "${alias}"` });
    else if (!variant.buyable)
      unbuyable.push({ field: `variants[${index}].alias`, message: `"${alias}" can no longer be bought` });
    else {
      if (quantity > maxLineQuantity)
        throw invalidField(
          `variants[${index}].quantity`,
          `adds up to ${quantity} for "${alias}", over the maximum of ${maxLineQuantity}`,
        );
      if (variant.purchaseLimitPerOrder !== null && quantity > variant.purchaseLimitPerOrder) {
        throw new DomainError('purchase_limit_exceeded', {
          detail: `at most ${variant.purchaseLimitPerOrder} of "${alias}" per order`,
          errors: [
            {
              field: `variants[${index}].quantity`,
              message: `over the limit of ${variant.purchaseLimitPerOrder} per order`,
            },
          ],
          extra: { product_variant_id: variant.id, limit: variant.purchaseLimitPerOrder },
        });
      }
      lines.push({
        alias,
        variantId: variant.id,
        productId: variant.productId,
        name: lineDisplayName({ productName: variant.productName, variantName: variant.name }),
        quantity,
        unitPriceMinor: unitPriceIn(market, variant),
        weightGrams: variant.weightGrams,
        taxClass: variant.taxClassId === null ? null : { id: variant.taxClassId, name: variant.taxClassName ?? '' },
      });
    }
  }
  if (unknown.length > 0)
    throw new DomainError('unknown_variant', {
      detail: unknown.map((e) => `${e.field}: ${e.message}`).join('; '),
      errors: unknown,
    });
  if (unbuyable.length > 0)
    throw new DomainError('variant_unavailable', {
      detail: unbuyable.map((e) => `${e.field}: ${e.message}`).join('; '),
      errors: unbuyable,
    });
  return { lines, variants };
}

/**
 * A read started now and awaited later: its rejection is marked handled meanwhile (so it is not reported as an
 * unhandled rejection before the quote gets to it), and thrown where it is awaited.
 */
function awaitedLater<T>(promise: Promise<T> | undefined): Promise<T> | undefined {
  promise?.catch(() => {});
  return promise;
}

/** Who the order is for and where it goes: the customer an admin names (with their default address), or the caller. */
async function resolveCustomer(db: Db | Tx, principal: Principal | null, payload: OrderPayload) {
  const ownerId = principal?.userId ?? null;
  const customer: OrderCustomer = { userId: ownerId, email: null };
  let shippingAddress: AddressSnapshot | null;
  if (payload.customer_id !== undefined) {
    const user = await findUserById(db as Db, payload.customer_id);
    if (!user) throw invalidField('customer_id', 'names no customer');
    customer.userId = user.id;
    customer.email = user.email;
    const stored = await defaultAddress(db, user.id);
    shippingAddress = stored ? addressSnapshot(stored) : null;
  } else {
    shippingAddress = await resolveAddress(db, {
      inline: payload.shipping_address,
      id: payload.shipping_address_id,
      ownerId,
      field: 'shipping_address',
    });
  }
  const billingAddress =
    (await resolveAddress(db, {
      inline: payload.billing_address,
      id: payload.billing_address_id,
      ownerId,
      field: 'billing_address',
    })) ?? shippingAddress;
  if (customer.userId === null) {
    const email = shippingAddress?.email || billingAddress?.email;
    customer.email = email ? email : null;
  }
  return { customer, shippingAddress, billingAddress };
}

type MethodWithRates = Awaited<ReturnType<QuoteReads['shippingMethodWithRates']>>;

/** The order's shipping: an admin's own amount, the rate of the chosen method for the address and weight, or none. */
async function resolveShipping(input: {
  money: CurrencyFormat;
  payload: OrderPayload;
  reads: QuoteReads;
  shippingAddress: AddressSnapshot | null;
  lines: readonly PricingLine[];
  /** The method's read, if it was started ahead. */
  prefetched: Promise<MethodWithRates> | undefined;
  market: Market;
}): Promise<PricingShipping | null> {
  const { money, payload, reads, shippingAddress, market } = input;
  if (payload.custom_shipping_amount) {
    return {
      type: 'custom',
      name: payload.custom_shipping_amount.name,
      amountMinor: amount(money, payload.custom_shipping_amount.price, 'custom_shipping_amount.price'),
    };
  }
  if (payload.shipping_method_id === undefined) return null;
  if (!shippingAddress)
    throw new DomainError('address_required', {
      detail: 'a shipping method needs a delivery address (shipping_address or shipping_address_id)',
    });
  const found = await (input.prefetched ?? reads.shippingMethodWithRates(payload.shipping_method_id));
  if (!found) throw invalidField('shipping_method_id', 'names no active shipping method');
  if (!offersShippingMethod(market, found.method.id)) {
    throw new DomainError('not_offered_in_market', {
      detail: `${found.method.name} is not offered in market "${market.code}"`,
      errors: [{ field: 'shipping_method_id', message: `is not offered in market "${market.code}"` }],
    });
  }
  const rate = shippingRateIn(
    market,
    selectShippingRate(found.rates, shippingAddress, orderWeightGrams(input.lines)) ?? undefined,
  );
  if (!rate)
    throw new DomainError('shipping_unavailable', {
      detail: `${found.method.name} has no rate for ${regionName(shippingAddress)} at this order's weight`,
    });
  return { type: 'rate', methodName: found.method.name, rate, taxClassId: found.method.taxClassId };
}

/** The rate of each tax class the lines and the shipping method take, for the address (its own, else the default). */
async function resolveTaxRatesOf(input: {
  reads: QuoteReads;
  shippingAddress: AddressSnapshot | null;
  lines: readonly PricingLine[];
  shipping: PricingShipping | null;
  /** The country's rates, if their read was started ahead. */
  prefetched: Promise<QuoteTaxRate[]> | undefined;
}): Promise<Map<number, string>> {
  const { shippingAddress, shipping } = input;
  const classIds = new Set<number>();
  for (const line of input.lines) if (line.taxClass) classIds.add(line.taxClass.id);
  if (shipping?.type === 'rate' && shipping.taxClassId != null) classIds.add(shipping.taxClassId);
  if (!shippingAddress || classIds.size === 0) return new Map<number, string>();
  const candidates = await (input.prefetched ?? input.reads.taxRatesOf(shippingAddress.country));
  return resolveTaxRates(candidates, shippingAddress, classIds);
}

/**
 * An admin's own discount, which replaces every promotion; else the promotions the order may get, and the buyer's
 * email as far as it is known (a user's only when a rule counted by it: a placement records it as it writes the order).
 */
async function resolveDiscounts(
  deps: QuoteDeps,
  request: QuoteRequest,
  { customer, lines, market }: { customer: OrderCustomer; lines: PricingLine[]; market: Market },
): Promise<{ customDiscount: CustomDiscount | null; candidates: CandidatePromotion[]; email: string | null }> {
  const { db, principal, payload, reads } = request;
  if (payload.custom_discount_amount) {
    const customDiscount = {
      name: payload.custom_discount_amount.name,
      amountMinor: amount(market.money, payload.custom_discount_amount.price, 'custom_discount_amount.price'),
    };
    return { customDiscount, candidates: [], email: customer.email };
  }
  const found = await candidatePromotions({
    db,
    reads,
    code: payload.promocode,
    codeCountedUnderLock: request.codeCountedUnderLock === true,
    customer,
    userEmail: async () => (principal ? ((await findUserById(db as Db, principal.userId))?.email ?? null) : null),
    order: promotionOrder(market.currency, lines),
    now: deps.now?.() ?? new Date(),
    currency: { order: market.currency, store: deps.money.currency },
  });
  return { customDiscount: null, candidates: found.candidates, email: found.email };
}

/**
 * Resolves and prices an order payload for a caller: the one function behind the estimate and
 * every placement, so both give the same figures. The estimate reads a promo code's counts here to explain a
 * refusal; a placement reads them only under the code's row lock as it writes, where the same rules refuse it with the
 * same answer (`codeCountedUnderLock`).
 */
export async function quoteOrder(deps: QuoteDeps, request: QuoteRequest): Promise<OrderQuote> {
  const resolved: { market?: Market } = {};
  try {
    return await quoteInMarket(deps, request, resolved);
  } catch (err) {
    if (err instanceof MoneyOverflowError && resolved.market && !resolved.market.isDefault) {
      throw amountTooLargeInMarket(resolved.market);
    }
    throw err;
  }
}

/**
 * The 422 for an order whose amounts leave the range the service holds exactly once converted into a market's currency
 * (a price of millions at a rate of billions): named, rather than the generic amount_too_large.
 */
function amountTooLargeInMarket(market: Market): DomainError {
  return new DomainError('amount_too_large', {
    detail:
      `in market "${market.code}" (${market.currency} at ${market.exchangeRate} per unit of the store currency) `
      + "this order's amounts are larger than the service can hold exactly; nothing was priced",
    extra: { market: market.code, currency: market.currency, exchange_rate: market.exchangeRate },
  });
}

const names = (code: string | undefined) => code !== undefined && code.trim() !== '';

/**
 * The market the order's cart keeps (the customer's, else the guest's of the X-Cart-Token: the cart a placement takes
 * its lines out of), read only when the request names no market and the store has another market than the default.
 */
async function keptCartMarket(deps: QuoteDeps, request: QuoteRequest, userId: number | null): Promise<number | null> {
  if (names(request.marketHeader) || names(request.payload.market)) return null;
  const cart =
    userId !== null ? { userId } : request.cartToken ? { tokenHash: hashCartToken(request.cartToken) } : undefined;
  if (cart === undefined || !(await deps.markets.hasSeveral())) return null;
  return keptMarketOfCart(request.db, cart);
}

/** `quoteOrder`, telling `resolved` the market as soon as it is known. */
async function quoteInMarket(
  deps: QuoteDeps,
  request: QuoteRequest,
  resolved: { market?: Market },
): Promise<OrderQuote> {
  const { config } = deps;
  const { principal, payload, reads } = request;
  checkPayloadRules(payload, principal);
  const { customer, shippingAddress, billingAddress } = await resolveCustomer(request.db, principal, payload);
  const { market, changed: marketChanged } = await deps.markets.ofCheckout({
    header: request.marketHeader,
    payload: payload.market,
    keptId: await keptCartMarket(deps, request, customer.userId),
    shippingCountry: shippingAddress?.country,
  });
  resolved.market = market;
  checkCurrency(payload, market);
  const money = market.money;

  // Reference data is asked for all at once (memory, or separate connections of the pool), rather
  // than one round trip after another: these reads start now, before the lines are resolved.
  const wantsShipping =
    payload.shipping_method_id !== undefined && shippingAddress !== null && !payload.custom_shipping_amount;
  const prefetched = {
    tax: awaitedLater(shippingAddress ? reads.taxRatesOf(shippingAddress.country) : undefined),
    shipping: awaitedLater(
      wantsShipping && payload.shipping_method_id !== undefined
        ? reads.shippingMethodWithRates(payload.shipping_method_id)
        : undefined,
    ),
  };
  const { lines, variants } = await resolveLines(reads, payload, { max: config.maxLineQuantity, market });
  const shipping = await resolveShipping({
    money,
    payload,
    reads,
    shippingAddress,
    lines,
    prefetched: prefetched.shipping,
    market,
  });
  const taxRates = await resolveTaxRatesOf({ reads, shippingAddress, lines, shipping, prefetched: prefetched.tax });
  const { customDiscount, candidates, email } = await resolveDiscounts(deps, request, { customer, lines, market });

  const priced = priceOrder({
    config: {
      currency: market.currency,
      roundingMode: config.roundingMode,
      pricesIncludeTax: market.pricesIncludeTax,
      shippingTaxable: config.shippingTaxable,
    },
    lines,
    taxRates,
    shipping,
    promotions: candidates.map((c) => c.promotion),
    customDiscount,
  });
  const byId = new Map(candidates.map((c) => [c.promotion.id, c]));
  const applied = (id: number) => {
    const candidate = byId.get(id);
    if (!candidate) throw new Error(`promotion ${id} applied without being a candidate`);
    return candidate;
  };
  return {
    priced,
    market,
    marketChanged,
    customer: { userId: customer.userId, email },
    shippingAddress,
    billingAddress,
    promotions: priced.promotions.map((p) => {
      const { promotion, version } = applied(p.id);
      return { id: p.id, code: p.code, version, promotion };
    }),
    variants,
    shippingMethodId: payload.shipping_method_id ?? null,
    note: payload.note ?? '',
    totalInStoreCurrency: totalInStoreCurrency(market, priced.totalMinor),
  };
}

/** A shipping address's region as a message names it: `US/CA`, or the country alone. */
function regionName(address: { country: string; state?: string | null }): string {
  return address.state ? `${address.country}/${address.state}` : address.country;
}

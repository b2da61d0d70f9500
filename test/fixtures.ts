import type { LightMyRequestResponse } from 'fastify';
import type { Static } from 'typebox';
import type * as catalog from '../src/catalog/catalog.schema.js';
import type { Db } from '../src/db/client.js';
import { promotions as promotionsTable } from '../src/db/schema.js';
import type * as markets from '../src/markets/market.schema.js';
import type { VariantPrice, VariantPricesInput } from '../src/markets/variant-prices.routes.js';
import type { OrderPayload } from '../src/placement/order-payload.schema.js';
import { type PromoCodeFields, promotionFromPromoCode } from '../src/promotions/promo-codes.bridge.js';
import type * as promoCodes from '../src/promotions/promo-codes.schema.js';
import type { PromotionRow } from '../src/promotions/promotions.repository.js';
import type * as promotions from '../src/promotions/promotions.schema.js';
import type * as shipping from '../src/shipping/shipping.schema.js';
import type * as tax from '../src/tax/tax.schema.js';
import { bearer, buildTestApp, type SignedIn, signInAdmin, type TestApp } from './helpers.js';

// Fixtures made through the HTTP API, as a store owner and a shopper make them: each call expects
// its status and fails naming the request, the status and the body, so a broken fixture says so
// before the test's own assertions run.

/** A body of an arbitrary route, read by assertions. */
// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON shapes
type Json = any;
type App = Pick<TestApp, 'app'>;

// Request bodies typed from the routes' own schemas, so a fixture cannot drift from the API.
export type TaxClassInput = Static<typeof tax.TaxClassInput>;
export type TaxRateInput = Static<typeof tax.TaxRateInput>;
export type ProductInput = Static<typeof catalog.ProductInput>;
export type ShippingMethodInput = Static<typeof shipping.ShippingMethodInput>;
export type ShippingRateInput = Static<typeof shipping.ShippingRateInput>;
export type PromoCodeInput = Static<typeof promoCodes.PromoCodeInput>;
export type PromotionInput = Static<typeof promotions.PromotionInput>;
export type MarketInput = Static<typeof markets.MarketInput>;

/** A guest's shipping address in Texas (US), with the email a guest order needs. */
export const guestAddress = {
  first_name: 'Gus',
  last_name: 'Guest',
  street_address: '5 Elm St',
  city: 'Austin',
  postal_code: '73301',
  state: 'TX',
  country: 'US',
  email: 'gus@example.com',
};

/** A guest's shipping address in `country` (one without states), with the email a guest order needs. */
export const addressIn = (country: string, email = 'mia@example.com') => ({
  first_name: 'Mia',
  last_name: 'Markets',
  street_address: '1 Rue',
  city: 'Town',
  postal_code: '10000',
  country,
  email,
});

/** An order payload as a client sends it: a line's quantity may be left to its default of 1. */
export type OrderInput = Omit<OrderPayload, 'variants'> & { variants: { alias: string; quantity?: number }[] };
export interface PlacedOrder {
  order_id: number;
  order_alias: string;
  order_token: string;
  total: string;
  [field: string]: unknown;
}

/** The parsed body of a response with the expected status; otherwise an error naming request, status and body. */
function bodyOf(res: LightMyRequestResponse, expected: { request: string; status: number }): Json {
  if (res.statusCode !== expected.status) {
    throw new Error(`${expected.request}: expected ${expected.status}, got ${res.statusCode} ${res.body}`);
  }
  return res.body === '' ? undefined : JSON.parse(res.body);
}

export interface ApiClient {
  get(path: string, status?: number): Promise<Json>;
  post(path: string, payload: object, status?: number): Promise<Json>;
  patch(path: string, payload: object, status?: number): Promise<Json>;
  put(path: string, payload: object, status?: number): Promise<Json>;
  delete(path: string, status?: number): Promise<Json>;
}

/**
 * Requests sent as `who` (a guest when absent). Each expects a status (POST 201, DELETE 204, others 200,
 * unless given) and returns the parsed body.
 */
export function apiAs(t: App, who?: SignedIn): ApiClient {
  type Request = {
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
    path: string;
    payload?: object;
    status: number;
  };
  const send = async (request: Request) => {
    const res = await t.app.inject({
      method: request.method,
      url: request.path,
      headers: who ? bearer(who.access) : {},
      ...(request.payload ? { payload: request.payload } : {}),
    });
    return bodyOf(res, { request: `${request.method} ${request.path}`, status: request.status });
  };
  return {
    get: (path, status = 200) => send({ method: 'GET', path, status }),
    post: (path, payload, status = 201) => send({ method: 'POST', path, payload, status }),
    patch: (path, payload, status = 200) => send({ method: 'PATCH', path, payload, status }),
    put: (path, payload, status = 200) => send({ method: 'PUT', path, payload, status }),
    delete: (path, status = 204) => send({ method: 'DELETE', path, status }),
  };
}

/** What a store owner sets up through the dashboard APIs; each answers the created row. */
export interface AdminApi extends ApiClient {
  taxClass(input: TaxClassInput): Promise<Static<typeof tax.TaxClass>>;
  taxRate(input: TaxRateInput): Promise<Static<typeof tax.TaxRate>>;
  product(input: ProductInput): Promise<Static<typeof catalog.AdminProduct>>;
  shippingMethod(input: ShippingMethodInput): Promise<Static<typeof shipping.ShippingMethod>>;
  shippingRate(input: ShippingRateInput): Promise<Static<typeof shipping.ShippingRate>>;
  promoCode(input: PromoCodeInput): Promise<Static<typeof promoCodes.PromoCode>>;
  promotion(input: PromotionInput): Promise<Static<typeof promotions.Promotion>>;
  market(input: MarketInput): Promise<Static<typeof markets.Market>>;
  /** Replaces a variant's explicit prices in other currencies than the store's (expecting 200). */
  variantPrices(
    variantId: number,
    prices: Static<typeof VariantPricesInput>['prices'],
  ): Promise<Static<typeof VariantPrice>[]>;
}

/** The dashboard APIs as `admin` (see signInAdmin), each create expecting 201. */
export function adminApi(t: App, admin: SignedIn): AdminApi {
  const api = apiAs(t, admin);
  return {
    ...api,
    taxClass: (input) => api.post('/tax/dashboard/api/tax-classes/', input),
    taxRate: (input) => api.post('/tax/dashboard/api/tax-rates/', input),
    product: (input) => api.post('/product/dashboard/api/products/', input),
    shippingMethod: (input) => api.post('/shipping/dashboard/api/shipping-methods/', input),
    shippingRate: (input) => api.post('/shipping/dashboard/api/shipping-rates/', input),
    promoCode: (input) => api.post('/discount/dashboard/api/promo-codes/', input),
    promotion: (input) => api.post('/discount/dashboard/api/promotions/', input),
    market: (input) => api.post('/market/dashboard/api/markets/', input),
    variantPrices: (variantId, prices) => api.put(`/product/dashboard/api/variants/${variantId}/prices/`, { prices }),
  };
}

/** A test app (buildTestApp's options) with an admin signed in, and the dashboard APIs as that admin. */
export async function buildAdminTestApp(
  options?: Parameters<typeof buildTestApp>[0],
): Promise<{ t: TestApp; admin: SignedIn; api: AdminApi }> {
  const t = await buildTestApp(options);
  const admin = await signInAdmin(t);
  return { t, admin, api: adminApi(t, admin) };
}

/**
 * Markets as several tests make them (decision 0031), each a MarketInput to spread and change: Europe in EUR at
 * 0.92 without a rounding rule, Japan in JPY at 151.37 rounded to the nearest ¥100 (25.00 USD → ¥3,800).
 */
export const marketInputs = {
  eu: { code: 'eu', name: 'Europe', currency: 'EUR', exchange_rate: '0.92', countries: ['DE', 'FR'] },
  jp: { code: 'jp', name: 'Japan', currency: 'JPY', exchange_rate: '151.37', rounding_step: '100', countries: ['JP'] },
} satisfies Record<string, MarketInput>;

type Headers = Record<string, string>;
/** The storefront's estimate of `payload` as the raw response; `headers` may name a market, a cart, a customer. */
export function sendEstimate(t: App, payload: object, headers: Headers = {}): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: '/order/storefront/api/estimate/', payload, headers });
}

/** A guest order sent to the storefront as the raw response (see placeGuestOrder for one expected to be placed). */
export function sendGuestOrder(t: App, payload: object, headers: Headers = {}): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: '/order/storefront/api/guest-user-order-create/', payload, headers });
}

/** A guest order placed through the storefront's guest route, expecting 201. */
export function placeGuestOrder(t: App, payload: OrderInput): Promise<PlacedOrder> {
  return apiAs(t).post('/order/storefront/api/guest-user-order-create/', payload);
}

/**
 * The types of an order's events, oldest first, as the admin event list answers them to `admin` (the newest 100);
 * throws unless they are numbered 1, 2, 3… in that order.
 */
export async function orderEventTypes(t: App, admin: SignedIn, orderAlias: string): Promise<string[]> {
  const page = await apiAs(t, admin).get(`/event/dashboard/api/events/?order_alias=${orderAlias}&limit=100`);
  const events = (page.items as { type: string; sequence: number }[]).reverse();
  // Every change numbers its events after the order's last: 1, 2, 3… in the order they were written.
  const numbers = events.map((e) => e.sequence);
  if (numbers.some((n, i) => n !== i + 1)) throw new Error(`order ${orderAlias}'s events are numbered ${numbers}`);
  return events.map((e) => e.type);
}

/**
 * A promo code in its stored form (`value`: percent, or minor units for `fixed`), the other fields defaulting to
 * none; `timesUsed` as if it had been used.
 */
export type StoredPromoCode = Pick<PromoCodeFields, 'code' | 'codeType' | 'value'> &
  Partial<PromoCodeFields> & { timesUsed?: number };

/**
 * Promo codes stored straight into the database as the promotions they are (promotionFromPromoCode, named as the
 * promo-codes API names them), for states the admin API does not make: used up, already expired.
 */
export function insertPromoCodes(db: Db, codes: StoredPromoCode[]): Promise<PromotionRow[]> {
  return db
    .insert(promotionsTable)
    .values(
      codes.map(({ timesUsed = 0, ...code }) => ({
        name: `Promo code ${code.code}`,
        timesUsed,
        ...promotionFromPromoCode({
          isActive: true,
          startsAt: null,
          expiresAt: null,
          minPurchaseAmount: null,
          redemptionLimit: null,
          usageLimitPerCustomer: null,
          specificCustomers: null,
          applicableProducts: null,
          newCustomersOnly: false,
          ...code,
        }),
      })),
    )
    .returning();
}

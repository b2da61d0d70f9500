import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { Count, Id, optionalBearerAuth, problems, StrictObject } from '../http/schemas.js';
import { DomainError } from '../shared/errors.js';
import { type Market, marketHeader } from '../markets/market-directory.js';
import { unitPriceIn } from '../markets/market-checkout.js';
import { MarketHeaderSchema } from '../markets/market.schema.js';
import { LineImage } from '../media/media.schema.js';
import { presentLineImage, presentOptions } from '../orders/order-line.js';
import { cartTokenFrom } from './cart-token.js';
import {
  addToCart,
  type CartDeps,
  type CartOwner,
  type CartResult,
  type ShownItem,
  lineIsAvailable,
  mergeGuestCart,
  removeCartLine,
  updateCartLine,
  viewCart,
} from './cart.service.js';

const CartItem = Type.Object({
  product_variant_id: Type.Integer(),
  alias: Type.String(),
  name: Type.String(),
  product_name: Type.String(),
  sku: Type.Union([Type.String(), Type.Null()]),
  options: Type.Array(Type.Object({ name: Type.String(), value: Type.String() }), {
    description: 'The variant\'s option values ("Size": "M") in the options\' order; empty when the product has none',
  }),
  image: LineImage,
  unit_price: Type.String(),
  quantity: Type.Integer(),
  subtotal: Type.String(),
  available: Type.Boolean({ description: 'false when archived or when stock no longer covers the quantity' }),
});

const Cart = Type.Object(
  {
    items: Type.Array(CartItem),
    total_items: Type.Integer(),
    subtotal: Type.String(),
    currency: Type.String(),
    cart_token: Type.Optional(Type.String({ description: 'Guests only: send it back as X-Cart-Token' })),
  },
  {
    // Documentation of the answer's headers (@fastify/swagger moves them to the response); the serializer ignores it.
    headers: {
      'x-cart-token': Type.String({
        description: "A guest's new cart: its token (also in cart_token), to send back as X-Cart-Token",
      }),
    },
  },
);

const EMPTY: ReadonlyMap<string, ShownItem> = new Map();

const CartMarket = Type.String({
  maxLength: 64,
  description:
    'The market to show and keep the cart in (a code such as "eu"), when no X-Market header is sent: the cart keeps '
    + 'it, and a later look without a market shows the cart in it. An unknown code is 422 unknown_market.',
  examples: ['eu'],
});

/** Carts are addressed only by the caller's identity: the user's token, or the guest's cart token. */
function ownerOf(request: FastifyRequest): CartOwner {
  if (request.principal) return { kind: 'user', userId: request.principal.userId };
  return { kind: 'guest', token: cartTokenFrom(request.headers['x-cart-token']) };
}

export function cartRoutes(deps: CartDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const common = {
      tags: ['cart'],
      description:
        'Signed-in customers (Bearer token) have one cart. Guests send X-Cart-Token; without it, a cart is created and '
        + 'its token returned in the X-Cart-Token header and as cart_token. A write naming a market (X-Market, or the '
        + "body's market) makes the cart keep it; a request naming none shows the cart in the market it keeps, else "
        + 'the default market.',
      headers: Type.Object({
        'x-cart-token': Type.Optional(Type.String({ description: 'Guest cart token' })),
        'x-market': Type.Optional(MarketHeaderSchema),
      }),
      security: optionalBearerAuth,
    };
    /**
     * The market the request names (X-Market, else the payload's `market`), resolved before anything is changed: an
     * unknown code changes no cart. Undefined when it names none.
     */
    const namedMarket = async (request: FastifyRequest, payload?: string): Promise<Market | undefined> => {
      const named = await deps.markets.requested({ header: marketHeader(request.headers), payload });
      return named.source === 'default' ? undefined : named.market;
    };
    /** A cart is shown in the market its request named, else the one it keeps, else the default (decision 0031). */
    const respond = async (reply: FastifyReply, result: CartResult, named: Market | undefined) => {
      const market = named ?? (await deps.markets.requested({ keptId: result.marketId })).market;
      const shown = result.lines.length === 0 ? EMPTY : await deps.shownItems(result.lines.map((l) => l.alias));
      let totalItems = 0;
      // bigint: a cart's sum can outgrow a safe integer where no single price does.
      let subtotal = 0n;
      const { money } = market;
      const items = result.lines.map((line) => {
        const price = unitPriceIn(market, line);
        const lineSubtotal = BigInt(price) * BigInt(line.quantity);
        totalItems += line.quantity;
        subtotal += lineSubtotal;
        const item = shown.get(line.alias);
        return {
          product_variant_id: line.variantId,
          alias: line.alias,
          name: line.name,
          product_name: line.productName,
          sku: line.sku,
          options: item ? presentOptions(item.options) : [],
          image: item ? presentLineImage(item.image) : null,
          unit_price: money.format(price),
          quantity: line.quantity,
          subtotal: money.format(lineSubtotal),
          available: lineIsAvailable(line),
        };
      });
      if (result.token) reply.header('x-cart-token', result.token);
      return {
        items,
        total_items: totalItems,
        subtotal: money.format(subtotal),
        currency: money.currency,
        ...(result.token ? { cart_token: result.token } : {}),
      };
    };
    const responses = { 200: Cart, ...problems(400, 401, 404, 409, 422, 503) };

    app.get(
      '/cart/storefront/api/carts/',
      {
        schema: { ...common, summary: "The caller's cart at current prices", response: responses },
      },
      async (request, reply) => {
        const named = await namedMarket(request);
        return respond(reply, await viewCart(deps, ownerOf(request), { marketId: named?.id }), named);
      },
    );

    app.post(
      '/cart/storefront/api/carts/add/',
      {
        schema: {
          ...common,
          summary: 'Add units of a variant (creates the line if absent)',
          body: StrictObject(
            {
              product_variant_id: Id,
              quantity: Count({ minimum: 1, maximum: deps.limits.maxLineQuantity, default: 1 }),
              market: Type.Optional(CartMarket),
            },
            { examples: [{ product_variant_id: 1, quantity: 2 }] },
          ),
          response: responses,
        },
      },
      async (request, reply) => {
        const named = await namedMarket(request, request.body.market);
        const result = await addToCart(deps, ownerOf(request), {
          variantId: request.body.product_variant_id,
          quantity: request.body.quantity,
          marketId: named?.id,
        });
        return respond(reply, result, named);
      },
    );

    app.put(
      '/cart/storefront/api/carts/update/',
      {
        schema: {
          ...common,
          summary: "Set a line's quantity (0 removes it); the variant must be in the cart",
          body: StrictObject(
            {
              product_variant_id: Id,
              quantity: Count({ maximum: deps.limits.maxLineQuantity }),
              market: Type.Optional(CartMarket),
            },
            { examples: [{ product_variant_id: 1, quantity: 3 }] },
          ),
          response: responses,
        },
      },
      async (request, reply) => {
        const named = await namedMarket(request, request.body.market);
        const result = await updateCartLine(deps, ownerOf(request), {
          variantId: request.body.product_variant_id,
          quantity: request.body.quantity,
          marketId: named?.id,
        });
        return respond(reply, result, named);
      },
    );

    app.delete(
      '/cart/storefront/api/carts/remove/:product_variant_id/',
      {
        schema: {
          ...common,
          summary: "Remove a variant's line from the cart",
          params: Type.Object({ product_variant_id: Id }),
          response: responses,
        },
      },
      async (request, reply) => {
        const named = await namedMarket(request);
        const input = { variantId: request.params.product_variant_id, marketId: named?.id };
        return respond(reply, await removeCartLine(deps, ownerOf(request), input), named);
      },
    );
  };
}

/**
 * What auth runs after a sign-in (`afterSignIn`): a guest who signs in with their cart token brings the cart along; a
 * bad token merges nothing.
 */
export function mergeCartAtSignIn(deps: CartDeps) {
  return async (request: FastifyRequest, userId: number): Promise<void> => {
    let token: string | undefined;
    try {
      token = cartTokenFrom(request.headers['x-cart-token']);
    } catch {
      return;
    }
    if (!token) return;
    try {
      await mergeGuestCart(deps, { userId, token });
    } catch (err) {
      // The sign-in stands: the guest cart stays as it was, and the next sign-in with its token merges it.
      if (!(err instanceof DomainError && err.code === 'database_unavailable')) throw err;
      request.log.warn({ err }, 'cart merge at sign-in refused by back-pressure; the guest cart was left as it was');
    }
  };
}

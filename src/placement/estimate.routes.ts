import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { checkoutCartToken } from '../cart/cart-token.js';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { type ValidationIssue, validationProblem } from '../http/error-handler.js';
import { parseJson, readJsonBody } from '../http/raw-json.js';
import { optionalBearerAuth, problems } from '../http/schemas.js';
import { compileBodyValidator } from '../http/validation.js';
import { DomainError } from '../shared/errors.js';
import type { CurrencyFormat } from '../shared/money.js';
import { type MarketDirectory, marketHeader } from '../markets/market-directory.js';
import { MarketHeaderSchema } from '../markets/market.schema.js';
import { type OrderPayload, orderPayloadExamples, orderPayloadSchema } from './order-payload.schema.js';
import { preparedQuoteReads } from './order-quote.repository.js';
import type { ReferenceCache } from './reference-cache.js';
import { type OrderQuote, quoteOrder } from './order-quote.service.js';
import { offersPaymentPlugin } from '../markets/market-checkout.js';
import { chargeablePluginIds } from '../payments/chargeable-plugins.js';
import type { PaymentRegistry } from '../payments/plugin-registry.js';
import { PricedOrderSchema } from './order-result.schema.js';
import { presentQuote } from './quote.presenter.js';
import { type Limiter, whileCountingPromoCode } from './promo-rate-limit.js';

export interface EstimateDeps {
  db: Db;
  config: Config;
  money: CurrencyFormat;
  promoLimiter: Limiter;
  cache: ReferenceCache;
  markets: MarketDirectory;
  /** The enabled payment plugins: an estimate outside the default market lists those that can take its total. */
  payments: PaymentRegistry;
}

/**
 * The estimate's answer: the quote, and outside the default market the payment plugins the market offers whose
 * gateway takes the total exactly (`payment_plugins`; a KWD total ending in an odd fils lists no Stripe). The default
 * market's answer is as it was before markets.
 */
function estimateAnswer(quote: OrderQuote, payments: PaymentRegistry) {
  const shown = presentQuote(quote);
  if (quote.market.isDefault && !quote.marketChanged) return shown;
  const { market } = quote;
  const amount = { amountMinor: quote.priced.totalMinor, currency: market.currency, exponent: market.money.exponent };
  const offers = (pluginId: string) => offersPaymentPlugin(market, pluginId);
  return { ...shown, payment_plugins: chargeablePluginIds(payments.list(), { offers, amount }) };
}

export function estimateRoutes(deps: EstimateDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const Payload = orderPayloadSchema(deps.config, orderPayloadExamples.estimate);
    const validate = compileBodyValidator(Payload);
    const url = '/order/storefront/api/estimate/';
    const common = {
      tags: ['orders'],
      security: optionalBearerAuth,
      headers: Type.Object({
        'x-market': Type.Optional(MarketHeaderSchema),
        'x-cart-token': Type.Optional(
          Type.String({ description: 'Guest cart: without a market named, the estimate is in the market it keeps' }),
        ),
      }),
      response: { 200: PricedOrderSchema, ...problems(400, 401, 403, 404, 413, 415, 422) },
    };
    const reads = deps.cache.reads(preparedQuoteReads(deps.db));
    const counting = whileCountingPromoCode(deps.promoLimiter);
    /** The payload of a GET: the body, or the JSON in `?payload=`, validated like a POST's body. */
    const payloadOfGet = ({ fromQuery, body }: { fromQuery: string | undefined; body: unknown }): OrderPayload => {
      if (fromQuery !== undefined && body !== undefined) {
        throw new DomainError('bad_request', {
          detail: 'send the payload either as the body or as ?payload=, not both',
        });
      }
      const payload = fromQuery !== undefined ? parseJson(fromQuery, 'the payload query parameter') : body;
      if (payload === undefined) {
        throw new DomainError('validation_error', {
          detail: 'the order payload is missing',
          errors: [{ field: 'variants', message: 'is required' }],
        });
      }
      if (!validate(payload)) throw validationProblem((validate.errors ?? []) as ValidationIssue[], 'body');
      return payload as OrderPayload;
    };
    const estimate = async (request: FastifyRequest, payload: OrderPayload) =>
      estimateAnswer(
        await quoteOrder(deps, {
          db: deps.db,
          principal: request.principal,
          payload,
          reads,
          marketHeader: marketHeader(request.headers),
          cartToken: checkoutCartToken(request.headers['x-cart-token']),
        }),
        deps.payments,
      );

    app.get(
      url,
      {
        // A GET's body is not parsed by Fastify: read it here, before the promo-code guard looks at it.
        preValidation: async (request) => {
          request.body = await readJsonBody(request.raw);
        },
        schema: {
          ...common,
          summary: 'Estimate an order: the payload as a JSON body on the GET, or URL-encoded JSON in ?payload=',
          description:
            'Changes nothing. Same payload and figures as placement. '
            + 'POST to the same path for clients that cannot send a body on GET.',
          querystring: Type.Object({
            payload: Type.Optional(Type.String({ description: 'URL-encoded JSON order payload' })),
          }),
        },
      },
      async (request) =>
        counting(request, () =>
          estimate(request, payloadOfGet({ fromQuery: request.query.payload, body: request.body })),
        ),
    );

    app.post(
      url,
      {
        schema: {
          ...common,
          summary: 'Estimate an order (the same as GET, for clients that cannot send a body on GET)',
          body: Payload,
        },
      },
      async (request) => counting(request, () => estimate(request, request.body)),
    );
  };
}

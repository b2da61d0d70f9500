import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { refuseBody } from '../http/no-body.js';
import { Type } from 'typebox';
import { requireAdmin } from '../http/auth.js';
import { bearerAuth, IdParams, optionalBearerAuth, problems, StrictObject } from '../http/schemas.js';
import { AliasParams, OrderTokenHeader } from '../orders/order.schema.js';
import { findVisibleOrder } from '../orders/orders.service.js';
import { orderCallerOf } from '../orders/order-caller.js';
import { Payment, presentPayment } from './payment.presenter.js';
import { capturePayment, refundPayment, voidPayment } from './payments.admin.js';
import { orderAliasOf, paymentsOfOrder } from './payments.repository.js';
import { handleWebhook, type PaymentsDeps, type StartedPayment, startPayment } from './payments.service.js';
import {
  IDEMPOTENCY_TTL_HOURS,
  idempotencyKeyFrom,
  rememberResponse,
  requestHash,
  storedResponse,
} from '../orders/idempotency.js';

const PluginParams = Type.Object({ payment_plugin_id: Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$' }) });
const Url = Type.String({ maxLength: 2000, format: 'uri', pattern: '^https?://[^\\s]+$', description: 'http(s) URL' });

export function paymentRoutes(deps: PaymentsDeps & { webhookRateLimitPerMinute: number }): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['payments'];

    app.get(
      '/payment/storefront/api/plugins/',
      {
        schema: {
          tags,
          summary: 'Enabled payment plugins',
          response: {
            200: Type.Array(
              Type.Object({
                id: Type.String(),
                name: Type.String(),
                manual_capture: Type.Boolean({
                  description: 'true: no gateway takes the money; an admin records it as received (cash on delivery)',
                }),
              }),
            ),
          },
        },
      },
      async () => deps.registry.list().map((p) => ({ id: p.id, name: p.name, manual_capture: p.manualCapture })),
    );

    app.post(
      '/payment/storefront/api/start-payment/:payment_plugin_id/',
      {
        schema: {
          tags,
          security: optionalBearerAuth,
          summary: 'Start paying an order: returns the gateway URL to send the payer to',
          description:
            "For the order's owner, an admin, or the holder of its X-Order-Token (anyone else: 404). The amount is "
            + "the order's unpaid total. Calling again while an attempt is open returns that attempt.",
          params: PluginParams,
          headers: Type.Object({
            'x-order-token': OrderTokenHeader,
            'idempotency-key': Type.Optional(
              Type.String({
                description:
                  'Makes the request safe to retry: the same key and body answer as the first time '
                  + `(kept ${IDEMPOTENCY_TTL_HOURS} h)`,
              }),
            ),
          }),
          body: StrictObject(
            {
              order_alias: Type.String({ pattern: '^[0-9a-fA-F-]{36}$' }),
              return_url: Type.Optional(Url),
              cancel_url: Type.Optional(Url),
            },
            {
              examples: [
                {
                  order_alias: 'ee1296ee-54a3-4f6b-9a8e-2b1c7d3e4f50',
                  return_url: 'http://127.0.0.1:8000/orders/ee1296ee-54a3-4f6b-9a8e-2b1c7d3e4f50',
                  cancel_url: 'http://127.0.0.1:8000/checkout',
                },
              ],
            },
          ),
          response: {
            200: Type.Object({
              url: Type.String(),
              payment_id: Type.Integer(),
              order_alias: Type.String(),
              amount: Type.String(),
              currency: Type.String(),
            }),
            ...problems(401, 404, 409, 410, 422, 502),
          },
        },
      },
      async (request) => {
        const caller = await orderCallerOf(deps.tokens, request);
        const key = idempotencyKeyFrom(request.headers['idempotency-key']);
        const pluginId = request.params.payment_plugin_id;
        let claim: { scope: string; key: string; requestHash: string } | undefined;
        if (key !== undefined) {
          // Only someone who may start this order's payment may read the stored answer.
          await findVisibleOrder(deps.db, request.body.order_alias, caller);
          claim = {
            scope: `start-payment:${request.body.order_alias}`,
            key,
            requestHash: requestHash('start-payment', { pluginId, ...request.body }),
          };
          const stored = await storedResponse(deps.db, claim);
          if (stored) return stored.body as StartedPayment;
        }
        const started = await startPayment(deps, {
          pluginId,
          orderAlias: request.body.order_alias,
          returnUrl: request.body.return_url,
          cancelUrl: request.body.cancel_url,
          caller,
        });
        if (claim) await rememberResponse(deps.db, claim, { status: 200, body: started });
        return started;
      },
    );

    app.get(
      '/payment/storefront/api/orders/:order_alias/payments/',
      {
        schema: {
          tags,
          security: optionalBearerAuth,
          summary: "An order's payment attempts, with what each took and refunded",
          description:
            "For the order's owner, an admin, or the holder of its X-Order-Token (anyone else: 404), so a storefront "
            + 'can show the customer their payments and refunds.',
          params: AliasParams,
          headers: Type.Object({ 'x-order-token': OrderTokenHeader }),
          response: { 200: Type.Array(Payment), ...problems(401, 404, 410, 422) },
        },
      },
      async (request) => {
        const order = await findVisibleOrder(
          deps.db,
          request.params.order_alias,
          await orderCallerOf(deps.tokens, request),
        );
        return (await paymentsOfOrder(deps.db, order.id)).map((p) => presentPayment(p, order.alias));
      },
    );

    // The webhook route alone gets the raw body: signatures are computed over the exact bytes.
    await app.register(async (plain) => {
      const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      scope.post(
        '/payment/storefront/api/webhook-view/:payment_plugin_id/',
        {
          config: { rateLimit: { max: deps.webhookRateLimitPerMinute, timeWindow: '1 minute' } },
          schema: {
            tags,
            summary: 'Payment gateway webhook (one route for every plugin)',
            description:
              'Called by gateways. The plugin checks the signature on the raw body first (400 if missing or wrong). '
              + 'Each event is stored once: repeats answer 200 and change nothing.',
            params: PluginParams,
            response: { 200: Type.Object({ received: Type.Integer() }), ...problems(400, 404, 429) },
          },
        },
        async (request) => {
          const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const result = await handleWebhook(deps, request.params.payment_plugin_id, {
            headers: request.headers,
            rawBody,
          });
          return { received: result.received };
        },
      );
    });
    // Gateways the service hosts itself (the sandbox) deliver their webhooks through this route, as any gateway does.
    deps.registry.bindWebhookDelivery(async (pluginId, request) => {
      const res = await app.inject({
        method: 'POST',
        url: `/payment/storefront/api/webhook-view/${pluginId}/`,
        headers: request.headers,
        payload: request.rawBody,
      });
      return { status: res.statusCode };
    });

    for (const plugin of deps.registry.list()) {
      if (plugin.gateway.routes) await app.register(async (scope) => plugin.gateway.routes?.(scope));
    }
  };
}

export function paymentAdminRoutes(deps: PaymentsDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const common = { tags: ['payments (admin)'], security: bearerAuth };
    app.addHook('onRequest', requireAdmin);

    app.get(
      '/payment/dashboard/api/orders/:order_alias/payments/',
      {
        schema: {
          ...common,
          summary: "An order's payment attempts",
          params: AliasParams,
          response: { 200: Type.Array(Payment), ...problems(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const order = await findVisibleOrder(deps.db, request.params.order_alias, { principal: request.principal });
        return (await paymentsOfOrder(deps.db, order.id)).map((p) => presentPayment(p, order.alias));
      },
    );

    const AmountBody = (what: string) =>
      Type.Union(
        [
          StrictObject({
            amount: Type.Optional(
              Type.String({ maxLength: 32, description: `Decimal in the payment's currency. Default: ${what}` }),
            ),
          }),
          Type.Null(),
        ],
        { examples: [{ amount: '10.00' }, {}] },
      );
    const idempotent = {
      headers: Type.Object({
        'idempotency-key': Type.Optional(
          Type.String({
            description:
              'Sending the request again with the same key resumes the same operation: it moves the money once',
          }),
        ),
      }),
    };
    const operationOf = (request: {
      params: { id: number };
      headers: Record<string, unknown>;
      principal: { userId: number } | null;
    }) => ({
      paymentId: request.params.id,
      requestKey: idempotencyKeyFrom(request.headers['idempotency-key'] as string | undefined),
      adminId: request.principal?.userId ?? null,
    });

    app.post(
      '/payment/dashboard/api/payments/:id/capture/',
      {
        schema: {
          ...common,
          summary: 'Capture authorized money (all or part), or record a cash-on-delivery payment as received',
          description:
            'With PAYMENT_CAPTURE=manual a payment is only authorized; this takes the money, through the gateway. '
            + 'A partial capture releases the rest (as gateways do). Cash on delivery: records the cash, in full.',
          params: IdParams,
          ...idempotent,
          body: AmountBody('all that is capturable'),
          response: { 200: Payment, ...problems(401, 403, 404, 409, 422, 502) },
        },
      },
      async (request) => {
        const payment = await capturePayment(deps, { ...operationOf(request), amount: request.body?.amount });
        return presentPayment(payment, await orderAliasOf(deps.db, payment));
      },
    );

    app.post(
      '/payment/dashboard/api/payments/:id/void/',
      {
        preValidation: refuseBody,
        schema: {
          ...common,
          summary: 'Release what an authorization still holds (the payer is not charged it)',
          params: IdParams,
          ...idempotent,
          response: { 200: Payment, ...problems(401, 403, 404, 409, 502) },
        },
      },
      async (request) => {
        const payment = await voidPayment(deps, operationOf(request));
        return presentPayment(payment, await orderAliasOf(deps.db, payment));
      },
    );

    app.post(
      '/payment/dashboard/api/payments/:id/refund/',
      {
        schema: {
          ...common,
          summary: 'Refund a payment, in full or in part (through the gateway when the plugin can)',
          description:
            'At most what the payment took and has not given back (`refundable`; more is a 422 '
            + '`refund_exceeds_refundable` naming it). What a refund gives beyond money owed back is a credit: '
            + 'it never makes the customer owe anything (docs/payments.md).',
          params: IdParams,
          ...idempotent,
          body: AmountBody('everything still refundable'),
          response: { 200: Payment, ...problems(401, 403, 404, 409, 422, 502) },
        },
      },
      async (request) => {
        const payment = await refundPayment(deps, { ...operationOf(request), amount: request.body?.amount });
        return presentPayment(payment, await orderAliasOf(deps.db, payment));
      },
    );
  };
}

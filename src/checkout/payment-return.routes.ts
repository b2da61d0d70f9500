import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { refusePage } from '../http/html.js';
import { problems } from '../http/schemas.js';
import { RETURN_PATH } from '../payments/return-links.js';
import { ORDER_PAGE_LINK_SECONDS } from './order-page-link.js';
import { type ReturnDeps, resolveReturn } from './payment-return.js';

/** The route a gateway sends the payer back to (the links start-payment gave it: src/payments/return-links.ts). */
export function paymentReturnRoutes(deps: ReturnDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      RETURN_PATH,
      {
        schema: {
          tags: ['payments'],
          summary: 'Where a gateway sends the payer back (303 to the storefront or to the order page)',
          description:
            'start-payment gives the gateway links to this route, signed for one attempt. With a '
            + 'return_url (or cancel_url) the payer goes on there with order_alias and payment_status (succeeded, '
            + "failed, pending, cancelled) added to its query; without one, to the order's HTML page through a link "
            + `valid ${ORDER_PAGE_LINK_SECONDS / 60} minutes. An expired link is a 410 order_link_expired, a forged or `
            + 'foreign one a 404 order_link_invalid (an HTML page for browsers).',
          querystring: Type.Object({ token: Type.Optional(Type.String({ maxLength: 2048 })) }),
          response: { ...problems(404, 410, 422) },
        },
      },
      async (request, reply) => {
        const next = await resolveReturn(deps, request.query.token);
        if (!next.ok) return refusePage(request, reply, next);
        // The link in this URL must not travel on as a Referer, nor be answered from a cache.
        reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
        return reply.redirect(next.location, 303);
      },
    );
  };
}

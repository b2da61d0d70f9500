import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { TokenService } from '../auth/tokens.js';
import type { Db } from '../db/client.js';
import { PAGE_HEADERS, refusePage } from '../http/html.js';
import { problems } from '../http/schemas.js';
import { paymentOutcome } from '../payments/payment-states.js';
import { paymentsOfOrder } from '../payments/payments.repository.js';
import { AliasParams } from '../orders/order.schema.js';
import { checkOrderPageLink, ORDER_PAGE_LINK_SECONDS, ORDER_PAGE_PATH } from './order-page-link.js';
import { renderOrderPage } from './order-page.js';
import { findOrderByAlias, linesOf } from '../orders/orders.repository.js';
import { fulfillmentsOf } from '../orders/fulfillments.repository.js';

/** The shop's page of an order (web/storefront), opened with the link's token: it keeps it as a guest's order token. */
export const shopOrderLink = (input: { alias: string; token: string }): string =>
  `/orders/${encodeURIComponent(input.alias)}?token=${encodeURIComponent(input.token)}`;

export function orderPageRoutes(deps: {
  db: Db;
  tokens: TokenService;
  /** Whether the service serves the shop (dist/public built): the page then links to the shop's page of the order. */
  shopServed: boolean;
}): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      `${ORDER_PAGE_PATH}:order_alias/`,
      {
        schema: {
          tags: ['orders'],
          summary: 'An order as an HTML page, opened through an expiring signed link',
          description:
            'Where a guest lands after paying when the storefront gave no return_url, and what the link in an '
            + 'order email opens. The link is signed for this order and expires: after '
            + `${ORDER_PAGE_LINK_SECONDS / 60} minutes from the payment return, after ORDER_EMAIL_LINK_DAYS (7 by `
            + 'default) from an email. '
            + 'A browser (Accept: text/html) is told in HTML when a link is expired (410) or not valid (404); other '
            + "clients get problem+json. When the service serves the shop, the page links to the shop's page of the "
            + 'order with the same token, where the guest returns items and pays what is due: the storefront API takes '
            + 'the token as X-Order-Token until it expires.',
          params: AliasParams,
          querystring: Type.Object({ token: Type.Optional(Type.String({ maxLength: 2048 })) }),
          response: { ...problems(404, 410, 422) },
        },
      },
      async (request, reply) => {
        const alias = request.params.order_alias;
        const link = await checkOrderPageLink(deps.tokens, { alias, token: request.query.token });
        if (!link.ok) return refusePage(request, reply, link);
        const order = await findOrderByAlias(deps.db, alias);
        // Signed by this store for an order it no longer has: as good as no link.
        if (!order) return refusePage(request, reply, { code: 'order_link_invalid', detail: 'this link is not valid' });
        const [lines, attempts, shipments] = await Promise.all([
          linesOf(deps.db, order.id),
          link.payment ? paymentsOfOrder(deps.db, order.id) : [],
          fulfillmentsOf(deps.db, order.id),
        ]);
        const { payment } = link;
        const returned = payment && attempts.find((p) => p.reference === payment.reference);
        const outcome = payment && returned ? paymentOutcome(returned.status, payment.end) : undefined;
        // The same token, never a fresh one: the shop's access ends when the email's link does.
        const shopLink =
          deps.shopServed && request.query.token ? shopOrderLink({ alias, token: request.query.token }) : undefined;
        const page = renderOrderPage({ order, lines, outcome, shipments, shopLink });
        return reply.code(200).headers(PAGE_HEADERS).send(page);
      },
    );
  };
}

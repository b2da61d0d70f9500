import type { FastifyRequest } from 'fastify';
import type { TokenService } from '../auth/tokens.js';
import { isOrderLinkToken, ORDER_LINK_PURPOSE } from './order-link.js';
import type { OrderCaller } from './orders.service.js';

/**
 * Who asks for an order on a storefront route: the signed-in principal, and what `X-Order-Token` holds, an order token
 * or an order link's token (checked here: signature, purpose and expiry; which order it opens, by findVisibleOrder).
 */
export async function orderCallerOf(tokens: TokenService, request: FastifyRequest): Promise<OrderCaller> {
  const header = request.headers['x-order-token'];
  const token = typeof header === 'string' ? header : undefined;
  if (token !== undefined && isOrderLinkToken(token)) {
    return { principal: request.principal, orderLink: await tokens.verifyLink(token, ORDER_LINK_PURPOSE) };
  }
  return { principal: request.principal, orderToken: token };
}

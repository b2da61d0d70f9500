import type { FastifyRequest } from 'fastify';
import { DomainError } from '../shared/errors.js';

/** One rate limiter (from @fastify/rate-limit's createRateLimit) shared by every route it guards. */
export type Limiter = (
  request: FastifyRequest,
) => Promise<{ isAllowed: true } | { isAllowed: false; isExceeded: boolean; ttlInSeconds: number }>;

function namesPromoCode(payload: unknown): boolean {
  return typeof payload === 'object' && payload !== null && Object.hasOwn(payload, 'promocode');
}

/**
 * Whether the order payload of this request (body or ?payload=) names a promo code. The query's
 * JSON is parsed, as the handler will parse it: a key spelled with escapes ("promo\u0063ode") is
 * the same key. A payload that isn't JSON is refused by the handler before any code is looked up.
 */
function sendsPromoCode(request: FastifyRequest): boolean {
  if (namesPromoCode(request.body)) return true;
  const query = (request.query as { payload?: unknown } | undefined)?.payload;
  if (typeof query !== 'string') return false;
  try {
    return namesPromoCode(JSON.parse(query));
  } catch {
    return false;
  }
}

/**
 * A preHandler that counts, per client address and across the estimate and every placement
 * route together, the requests that try a promo code, so codes can't be guessed by brute force.
 * Requests without a code are not counted.
 */
export function promoCodeGuard(limiter: Limiter) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!sendsPromoCode(request)) return;
    const result = await limiter(request);
    if (!result.isAllowed && result.isExceeded) {
      throw new DomainError('rate_limited', {
        detail: `too many promo-code attempts; retry in ${result.ttlInSeconds} s`,
        headers: { 'retry-after': String(result.ttlInSeconds) },
      });
    }
  };
}

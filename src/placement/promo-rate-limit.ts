import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
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
 * Counts, per client address and across the estimate and every placement route together, a request that tries a
 * promo code, so codes can't be guessed by brute force; throws 429 `rate_limited` once there were too many. Requests
 * without a code are not counted.
 */
export function promoCodeAttempt(limiter: Limiter) {
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

/** The count as a preHandler: the request goes on only once it is counted and allowed (placement writes). */
export function promoCodeGuard(limiter: Limiter) {
  return promoCodeAttempt(limiter);
}

/**
 * For work that changes nothing (the estimate): the attempt is counted while `work` runs, and the answer waits for
 * the count, so a refused attempt learns nothing from it (429 whatever the work found) but the round trip to the
 * counters no longer adds to the work's time.
 */
export function whileCountingPromoCode(limiter: Limiter) {
  const attempt = promoCodeAttempt(limiter);
  return async <T>(request: FastifyRequest, work: () => Promise<T>): Promise<T> => {
    const counted = attempt(request);
    // Marked handled now; awaited, and so thrown, before any answer.
    counted.catch(() => {});
    let result: T;
    try {
      result = await work();
    } catch (err) {
      await counted;
      throw err;
    }
    await counted;
    return result;
  };
}

/** The app's one limiter of promo-code attempts (PROMO_RATE_LIMIT_PER_MINUTE per client address). */
export function promoCodeLimiter(app: FastifyInstance, perMinute: number): Limiter {
  return app.createRateLimit({
    max: perMinute,
    timeWindow: '1 minute',
    // Its own key space: a limiter made here has no route to tell it apart in a shared store.
    keyGenerator: (request) => `promo-code-${normalizeIP(request.ip)}`,
  });
}

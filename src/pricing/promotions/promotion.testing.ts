import type { RoundingMode } from '../../shared/money.js';
import type { ActionContext, PromotionOrder } from './promotion.modules.js';
import { promotionOrder } from './promotion-order.js';
import type { Promotion, PromotionAction } from './promotion.types.js';
import { linesAtPrice } from './unit-runs.js';

/**
 * Builders for the promotion tests (and anyone writing one): a promotion with every rule open, an action's context
 * on fresh lines, an order for conditions.
 */

/** An active, combinable, automatic promotion of priority 0 with no limits and no conditions, unless told. */
export function testPromotion(fields: Partial<Promotion> & { id: number; action: PromotionAction }): Promotion {
  return {
    name: `Promotion ${fields.id}`,
    code: null,
    isActive: true,
    startsAt: null,
    expiresAt: null,
    priority: 0,
    combinable: true,
    redemptionLimit: null,
    usageLimitPerCustomer: null,
    newCustomersOnly: false,
    specificCustomerIds: null,
    conditions: [],
    ...fields,
  };
}

/** Lines as `[productId, unitPriceMinor, quantity]`. */
export type TestLine = [productId: number, unitPriceMinor: number, quantity: number];

const asLines = (lines: readonly TestLine[]) =>
  lines.map(([productId, unitPriceMinor, quantity]) => ({ productId, unitPriceMinor, quantity }));

/** What an action sees before any other promotion applied. */
export function freshContext(
  lines: readonly TestLine[],
  options: { shippingMinor?: number; roundingMode?: RoundingMode } = {},
): ActionContext {
  return {
    lines: linesAtPrice(asLines(lines)),
    shippingLeftMinor: options.shippingMinor ?? 0,
    roundingMode: options.roundingMode ?? 'half_up',
  };
}

/** What conditions see of an order of these lines. */
export function testOrder(lines: readonly TestLine[], currency = 'USD'): PromotionOrder {
  return promotionOrder(currency, asLines(lines));
}

import type { Db, Tx } from '../db/client.js';
import { normalisePromoCode } from '../pricing/promo-code.promotion.js';
import { checkPromotion } from '../pricing/promotions/promotion.check.js';
import type { PromotionOrder } from '../pricing/promotions/promotion.modules.js';
import type { Promotion } from '../pricing/promotions/promotion.types.js';
import { promotionFromRow } from '../promotions/promotions.mapper.js';
import { DomainError } from '../shared/errors.js';
import { hasPreviousOrders, type PromotionRow, type QuoteReads, redemptionsBy } from './order-quote.repository.js';

/** A promotion an order may get, with the version of it that was priced (placement refuses a newer one). */
export interface CandidatePromotion {
  promotion: Promotion;
  /** `updated_at` of the row in epoch ms: any admin change to the promotion changes it. */
  version: number;
}

export interface CandidateRequest {
  db: Db | Tx;
  reads: QuoteReads;
  /** The code the customer typed, if any (normalised here). */
  code: string | undefined;
  /** Who orders; a user's email is asked for only when a rule counts by it (`userEmail`). */
  customer: { userId: number | null; email: string | null };
  userEmail: () => Promise<string | null>;
  order: PromotionOrder;
  now: Date;
}

/**
 * The promotions an order may get (SPEC section 10, step 1): the automatic ones whose rules hold for this customer
 * and order, and the promotion of the code sent. A code that fails a rule is a 422 `promo_code_invalid` naming the
 * rule; an automatic promotion that fails one is left out. Counts are read only for the rules a promotion has.
 * Placement checks the same rules again under lock (`decideBatch`).
 */
export async function candidatePromotions(
  request: CandidateRequest,
): Promise<{ candidates: CandidatePromotion[]; email: string | null }> {
  const { reads, code } = request;
  const [automatic, coded] = await Promise.all([
    reads.automaticPromotions(),
    code === undefined ? undefined : reads.promotionByCode(normalisePromoCode(code)),
  ]);
  if (code !== undefined && !coded) {
    throw new DomainError('promo_code_invalid', { detail: `there is no promo code ${normalisePromoCode(code)}` });
  }
  const rows = coded ? [...automatic, coded] : automatic;
  const customer = { ...request.customer };
  if (customer.userId !== null && customer.email === null && rows.some(countsByCustomer)) {
    customer.email = await request.userEmail();
  }
  let previous: Promise<boolean> | undefined;
  const hasOrdered = () => {
    previous ??= hasPreviousOrders(request.db, customer);
    return previous;
  };
  const checked = await Promise.all(
    rows.map(async (row) => {
      const [total, byCustomer, hasPrevious] = await Promise.all([
        row.redemptionLimit !== null ? reads.timesUsed(row.id) : row.timesUsed,
        row.usageLimitPerCustomer !== null ? redemptionsBy(request.db, row.id, customer) : 0,
        row.newCustomersOnly ? hasOrdered() : false,
      ]);
      const promotion = promotionFromRow(row);
      const check = checkPromotion({
        promotion,
        usage: { total, byCustomer },
        customer: { ...customer, hasPreviousOrders: hasPrevious },
        order: request.order,
        now: request.now,
      });
      return { promotion, version: row.updatedAt.getTime(), check };
    }),
  );
  const candidates: CandidatePromotion[] = [];
  for (const { promotion, version, check } of checked) {
    if (check.ok) candidates.push({ promotion, version });
    else if (promotion.code !== null) {
      throw new DomainError('promo_code_invalid', { detail: check.detail, extra: { rule: check.rule } });
    }
  }
  return { candidates, email: customer.email };
}

/** Whether a promotion's rules count a customer's earlier orders or uses (which a user's email takes part in). */
function countsByCustomer(row: PromotionRow): boolean {
  return row.usageLimitPerCustomer !== null || row.newCustomersOnly;
}

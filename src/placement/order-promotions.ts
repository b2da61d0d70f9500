import type { Db, Tx } from '../db/client.js';
import { normalisePromoCode } from '../pricing/promo-code.promotion.js';
import { checkPromotion, type PromotionCheck } from '../pricing/promotions/promotion.check.js';
import type { PromotionOrder } from '../pricing/promotions/promotion.modules.js';
import type { Promotion } from '../pricing/promotions/promotion.types.js';
import { currencyRefusal, promotionInCurrency } from '../pricing/promotions/promotion-currency.js';
import { DomainError } from '../shared/errors.js';
import { hasPreviousOrders, type QuoteReads, type ReadPromotion, redemptionsBy } from './order-quote.repository.js';

/** A promotion an order may get, with the version of it that was priced (placement refuses a newer one). */
export type CandidatePromotion = Pick<ReadPromotion, 'promotion' | 'version'>;

export interface CandidateRequest {
  db: Db | Tx;
  reads: QuoteReads;
  /** The code the customer typed, if any (normalised here). */
  code: string | undefined;
  /** The code's counted rules are checked under its row lock by the caller (placement): no counts are read for it. */
  codeCountedUnderLock: boolean;
  /** Who orders; a user's email is asked for only when a rule counts by it (`userEmail`). */
  customer: { userId: number | null; email: string | null };
  userEmail: () => Promise<string | null>;
  order: PromotionOrder;
  now: Date;
  /**
   * The order's currency and the store's: a promotion applies with its amounts in the order's currency, or not at all
   * when a money field has none there (decision 0037).
   */
  currency: { order: string; store: string };
}

/**
 * The promotions an order may get (SPEC section 10, step 1): the automatic ones whose rules hold for this customer
 * and order, and the promotion of the code sent. A code that fails a rule is a 422 `promo_code_invalid` naming the
 * rule; an automatic promotion that fails one is left out. Counts are read only for the rules a promotion has, and
 * not for the code's when the caller counts them under the code's row lock (placement: `decideBatch` checks every rule
 * again there, with these messages). An automatic promotion's counts are always read: one that fails is left out of
 * the price, which only the quote can do.
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
  const codedInCurrency = coded && localised(coded, request.currency);
  if (coded && !codedInCurrency) {
    throw new DomainError('promo_code_invalid', {
      detail: currencyRefusal(coded.promotion, request.currency.order),
      extra: { rule: 'currency' },
    });
  }
  const inCurrency =
    request.currency.order === request.currency.store
      ? automatic
      : automatic.flatMap((read) => localised(read, request.currency) ?? []);
  const found = codedInCurrency ? [...inCurrency, codedInCurrency] : inCurrency;
  const customer = { userId: request.customer.userId, email: request.customer.email };
  if (customer.userId !== null && customer.email === null && found.some((f) => countsByCustomer(f.promotion))) {
    customer.email = await request.userEmail();
  }
  let previous: Promise<boolean> | undefined;
  const hasOrdered = () => {
    previous ??= hasPreviousOrders(request.db, customer);
    return previous;
  };
  const check = (read: ReadPromotion, counts: { total: number; byCustomer: number; hasPrevious: boolean }) =>
    checkPromotion({
      promotion: read.promotion,
      usage: { total: counts.total, byCustomer: counts.byCustomer },
      customer: { userId: customer.userId, email: customer.email, hasPreviousOrders: counts.hasPrevious },
      order: request.order,
      now: request.now,
    });
  // Counts are read only for the rules a promotion has; a promotion without limits is checked at once (and when none
  // has any, nothing is awaited).
  let counted = false;
  const pending = found.map((read): PromotionCheck | Promise<PromotionCheck> => {
    const { promotion } = read;
    // Checked here without its counts (none used yet), and with them under the code's row lock.
    if (request.codeCountedUnderLock && promotion.code !== null) {
      return check(read, { total: 0, byCustomer: 0, hasPrevious: false });
    }
    if (promotion.redemptionLimit === null && !countsByCustomer(promotion)) {
      return check(read, { total: read.timesUsed, byCustomer: 0, hasPrevious: false });
    }
    counted = true;
    return Promise.all([
      promotion.redemptionLimit !== null ? reads.timesUsed(promotion.id) : read.timesUsed,
      promotion.usageLimitPerCustomer !== null ? redemptionsBy(request.db, promotion.id, customer) : 0,
      promotion.newCustomersOnly ? hasOrdered() : false,
    ]).then(([total, byCustomer, hasPrevious]) => check(read, { total, byCustomer, hasPrevious }));
  });
  const checks = counted ? await Promise.all(pending) : (pending as PromotionCheck[]);
  const candidates: CandidatePromotion[] = [];
  found.forEach(({ promotion, version }, i) => {
    const verdict = checks[i];
    if (verdict?.ok) candidates.push({ promotion, version });
    else if (verdict && promotion.code !== null) {
      throw new DomainError('promo_code_invalid', { detail: verdict.detail, extra: { rule: verdict.rule } });
    }
  });
  return { candidates, email: customer.email };
}

/** A promotion read as it applies in the order's currency (its amounts there), or undefined when it does not. */
function localised(read: ReadPromotion, currency: { order: string; store: string }): ReadPromotion | undefined {
  const promotion = promotionInCurrency(read.promotion, currency);
  if (promotion === null) return undefined;
  return promotion === read.promotion ? read : { ...read, promotion };
}

/** Whether a promotion's rules count a customer's earlier orders or uses (which a user's email takes part in). */
function countsByCustomer(promotion: Promotion): boolean {
  return promotion.usageLimitPerCustomer !== null || promotion.newCustomersOnly;
}

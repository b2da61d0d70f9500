import { ledgerOfOrder } from '../orders/order-ledger.js';
import { currencyFormat } from '../shared/money.js';
import { editLines } from './order-edits.repository.js';
import type { OrderEditOutcome } from './order-edits.service.js';

/**
 * What an edit does (or would do), as the preview and the edit answer it: figures, lines, the ledger after it, every
 * amount in the order's currency.
 */
export function presentEdit(outcome: OrderEditOutcome) {
  const { before, after, decision } = outcome;
  const money = currencyFormat(after.currency);
  const ledger = ledgerOfOrder(after);
  const names = new Map(before.promotions.map((p) => [p.id, p.name]));
  return {
    currency: after.currency,
    total_before: money.format(before.total),
    total_after: money.format(after.total),
    difference: money.format(decision.difference),
    subtotal: money.format(after.subtotal),
    discount: money.format(after.discount),
    estimated_tax: money.format(after.estimatedTax),
    lines: editLines(decision.lines).map((l) => ({ ...l, unit_price: money.format(l.unit_price) })),
    dropped_promotions: decision.droppedPromotionIds.map((id) => ({ id, name: names.get(id) ?? '' })),
    balance_due: money.format(ledger.balanceDue),
    refund_due: money.format(ledger.refundDue),
  };
}

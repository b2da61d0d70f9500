import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ledgerOfOrder } from '../orders/order-ledger.js';
import { CATALOG, CATALOG_ALIASES, OrderModel, tenPercent } from './order-edit.testing.js';

// Issue #27 item 4: random sequences of edits, payments and refunds on one order, as the service runs them (an edit
// decided by decideOrderEdit and written as the service writes it; a payment takes what the ledger asks; a refund at
// most what is refundable, credited beyond what is owed back), and what must hold after every step: the order's figures
// satisfy SPEC section 6, stock is never negative and every unit is either on the shelf or in the order, nothing is
// refunded beyond what was captured, and a negative balance (money owed back) only follows an edit that lowered the
// total past what was paid, and is always covered by what is refundable.

type Step =
  | { kind: 'edit'; changes: { alias: string; quantity: number }[] }
  | { kind: 'pay' }
  | { kind: 'refund'; percent: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('edit' as const),
    changes: fc.uniqueArray(
      fc.record({ alias: fc.constantFrom(...CATALOG_ALIASES), quantity: fc.integer({ min: 0, max: 8 }) }),
      { selector: (c) => c.alias, minLength: 1, maxLength: 3 },
    ),
  }),
  fc.constant({ kind: 'pay' as const }),
  fc.record({ kind: fc.constant('refund' as const), percent: fc.integer({ min: 0, max: 100 }) }),
);

/** Applies a step as the service would; a refused edit changes nothing. */
function apply(model: OrderModel, s: Step): void {
  if (s.kind === 'pay') model.payInFull();
  else if (s.kind === 'refund') model.refund(Math.floor((model.ledger().refundable * s.percent) / 100));
  else model.edit(s.changes);
}

describe('random sequences of edits, payments and refunds on one order', () => {
  it('keep its figures, its stock, its refunds and its balance true after every step', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.record({
            alias: fc.constantFrom(...CATALOG_ALIASES),
            quantity: fc.integer({ min: 1, max: 5 }),
          }),
          { selector: (c) => c.alias, minLength: 1, maxLength: 3 },
        ),
        fc.boolean(),
        fc.array(step, { maxLength: 12 }),
        (initial, withPromotion, steps) => {
          const store = OrderModel.place(initial, { promotions: withPromotion ? [tenPercent] : [] });
          fc.pre(store !== undefined);
          for (const s of steps) {
            const before = ledgerOfOrder(store.order);
            const totalBefore = store.order.total;
            apply(store, s);
            const o = store.order;
            const ledger = ledgerOfOrder(o);
            // SPEC 6 on net prices: subtotal − discount + shipping fee + tax = total; lines add up to it.
            expect(o.subtotal - o.discount + o.shippingFee + o.estimatedTax).toBe(o.total);
            expect(store.lines.reduce((sum, l) => sum + l.subtotal, 0)).toBe(o.subtotal);
            // Stock: never negative, and every counted unit is on the shelf or in the order.
            for (const c of CATALOG) {
              const left = store.stock.get(c.id) ?? 0;
              expect(left).toBeGreaterThanOrEqual(0);
              const held = store.lines
                .filter((l) => l.variantId === c.id && l.stockReserved)
                .reduce((n, l) => n + l.quantity, 0);
              if (c.track) expect(left + held).toBe(c.stock);
              else expect(left).toBe(c.stock);
            }
            // Money: never refunded beyond what was captured; owed back only after an edit lowered the total (or
            // as before), and always covered by what can be refunded.
            expect(o.amountRefunded).toBeLessThanOrEqual(o.amountCaptured);
            if (ledger.balanceDue < 0 && before.balanceDue >= 0) {
              expect(s.kind).toBe('edit');
              expect(o.total).toBeLessThan(totalBefore);
            }
            expect(ledger.refundDue).toBeLessThanOrEqual(ledger.refundable);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

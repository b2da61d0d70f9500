import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ledgerOfOrder, orderPaymentStatus, refundCredit } from '../orders/order-ledger.js';
import type { OrderLineRow, OrderRow } from '../orders/orders.repository.js';
import type { PlacedOrderBasis } from '../pricing/order-as-placed.js';
import type { PricedOrder } from '../pricing/pricing.types.js';
import { testPromotion } from '../pricing/promotions/promotion.testing.js';
import { DomainError } from '../shared/errors.js';
import { decideOrderEdit, type EditedVariant } from './order-edit.decide.js';

// Issue #27 item 4: random sequences of edits, payments and refunds on one order, as the service runs them (an edit
// decided by decideOrderEdit and written as the service writes it; a payment takes what the ledger asks; a refund at
// most what is refundable, credited beyond what is owed back), and what must hold after every step: the order's figures
// satisfy SPEC section 6, stock is never negative and every unit is either on the shelf or in the order, nothing is
// refunded beyond what was captured, and a negative balance (money owed back) only follows an edit that lowered the
// total past what was paid, and is always covered by what is refundable.

/** The catalog: a counted, a scarce counted and an uncounted variant, each with a tax rate. */
const CATALOG = [
  { id: 1, alias: 'mug', price: 1250, stock: 40, track: true, rate: '8.25' },
  { id: 2, alias: 'plate', price: 399, stock: 6, track: true, rate: '8.25' },
  { id: 3, alias: 'card', price: 150, stock: 0, track: false, rate: '0' },
] as const;

const tenPercent = testPromotion({
  id: 9,
  name: '10 % from 20.00',
  conditions: [{ type: 'min_subtotal', amountMinor: 2000 }],
  action: { type: 'order_percentage', percent: '10', products: null },
});

type Step =
  | { kind: 'edit'; changes: { alias: string; quantity: number }[] }
  | { kind: 'pay' }
  | { kind: 'refund'; percent: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('edit' as const),
    changes: fc.uniqueArray(
      fc.record({ alias: fc.constantFrom(...CATALOG.map((c) => c.alias)), quantity: fc.integer({ min: 0, max: 8 }) }),
      { selector: (c) => c.alias, minLength: 1, maxLength: 3 },
    ),
  }),
  fc.constant({ kind: 'pay' as const }),
  fc.record({ kind: fc.constant('refund' as const), percent: fc.integer({ min: 0, max: 100 }) }),
);

/** The model store: stock per variant, the order's row (figures and ledger totals) and lines. */
class Store {
  stock = new Map<number, number>(CATALOG.map((c) => [c.id, c.stock]));
  order: OrderRow;
  lines: OrderLineRow[] = [];
  basis: PlacedOrderBasis;
  nextLineId = 1;

  constructor(initial: { alias: string; quantity: number }[], withPromotion: boolean) {
    this.basis = {
      currency: 'USD',
      pricesIncludeTax: false,
      lines: [],
      shipping: { name: 'Ground', feeMinor: 500, taxRate: null },
      discountName: null,
      discountMinor: 0,
      promotions: withPromotion ? [tenPercent] : [],
    };
    this.order = { total: 0, status: 'pending', alias: 'o' } as OrderRow;
    this.order = {
      ...this.order,
      amountAuthorized: 0,
      amountCaptured: 0,
      amountRefunded: 0,
      amountCredited: 0,
      amountReturned: 0,
      amountCapturable: 0,
    };
    // Placement is an edit of an empty order here: the same pricing, the same stock rule.
    this.lines = [];
    this.apply({ kind: 'edit', changes: initial }, { placing: true });
  }

  variants(): Map<string, EditedVariant> {
    return new Map(
      CATALOG.map((c) => [
        c.alias,
        {
          id: c.id,
          alias: c.alias,
          productId: c.id,
          name: c.alias,
          productName: c.alias,
          variantName: c.alias,
          sku: null,
          priceMinor: c.price,
          trackInventory: c.track,
          allowBackorder: false,
          stock: this.stock.get(c.id) ?? 0,
          purchaseLimitPerOrder: null,
          archivedAt: null,
          productArchivedAt: null,
          taxClassName: c.rate === '0' ? null : 'Standard',
          taxRate: c.rate,
        },
      ]),
    );
  }

  /** Writes a decided edit as the service does: lines, basis, stock, figures. */
  private write(priced: PricedOrder, decision: ReturnType<typeof decideOrderEdit>) {
    for (const [id, units] of decision.stock) this.stock.set(id, (this.stock.get(id) ?? 0) + units);
    const lines: OrderLineRow[] = [];
    for (const l of decision.lines) {
      if (l.kind === 'removed') continue;
      const alias = l.kind === 'added' ? l.variant.alias : l.line.alias;
      const p = priced.lines.find((x) => x.alias === alias);
      if (!p) throw new Error(`line ${alias} not priced`);
      const row =
        l.kind === 'added'
          ? ({
              id: this.nextLineId++,
              alias,
              variantId: l.variant.id,
              productId: l.variant.productId,
              unitPrice: p.unitPriceMinor,
              taxClassName: l.variant.taxClassName,
              taxRate: p.taxRate,
              stockReserved: l.stockReserved,
            } as OrderLineRow)
          : l.line;
      lines.push({
        ...row,
        quantity: p.quantity,
        subtotal: p.subtotalMinor,
        discount: p.discountMinor,
        tax: p.taxMinor,
        total: p.totalMinor,
      });
    }
    this.lines = lines;
    this.basis = {
      ...this.basis,
      lines: lines.map((l) => ({
        alias: l.alias,
        variantId: l.variantId,
        productId: l.productId,
        name: l.alias,
        quantity: l.quantity,
        unitPriceMinor: l.unitPrice,
        taxClassName: l.taxClassName,
        taxRate: l.taxRate,
      })),
      promotions: this.basis.promotions.filter((p) => priced.promotions.some((q) => q.id === p.id)),
    };
    this.order = {
      ...this.order,
      subtotal: priced.subtotalMinor,
      discount: priced.discountMinor,
      shippingFee: priced.shippingFeeMinor,
      estimatedTax: priced.estimatedTaxMinor,
      total: priced.totalMinor,
    };
  }

  /** Applies a step as the service would; a refused edit changes nothing. */
  apply(s: Step, options: { placing?: boolean } = {}): void {
    const ledger = ledgerOfOrder(this.order);
    if (s.kind === 'pay') {
      this.order.amountCaptured += ledger.toPay;
    } else if (s.kind === 'refund') {
      const amount = Math.floor((ledger.refundable * s.percent) / 100);
      this.order.amountCredited += refundCredit(ledger, amount);
      this.order.amountRefunded += amount;
    } else {
      try {
        const decision = decideOrderEdit({
          order: this.order,
          lines: this.lines,
          basis: this.basis,
          changes: s.changes,
          variants: this.variants(),
          roundingMode: 'half_up',
        });
        this.write(decision.priced, decision);
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        if (options.placing) throw new fc.PreconditionFailure();
      }
    }
    this.order.paymentStatus = orderPaymentStatus(ledgerOfOrder(this.order));
  }
}

describe('random sequences of edits, payments and refunds on one order', () => {
  it('keep its figures, its stock, its refunds and its balance true after every step', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.record({
            alias: fc.constantFrom(...CATALOG.map((c) => c.alias)),
            quantity: fc.integer({ min: 1, max: 5 }),
          }),
          { selector: (c) => c.alias, minLength: 1, maxLength: 3 },
        ),
        fc.boolean(),
        fc.array(step, { maxLength: 12 }),
        (initial, withPromotion, steps) => {
          const store = new Store(initial, withPromotion);
          for (const s of steps) {
            const before = ledgerOfOrder(store.order);
            const totalBefore = store.order.total;
            store.apply(s);
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

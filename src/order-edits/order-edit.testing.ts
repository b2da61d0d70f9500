import {
  ledgerOfOrder,
  type OrderLedger,
  type OrderPaymentStatus,
  orderPaymentStatus,
  refundCredit,
} from '../orders/order-ledger.js';
import { approvesOnPayment } from '../orders/order-states.js';
import type { OrderLineRow, OrderRow } from '../orders/orders.repository.js';
import type { PlacedOrderBasis } from '../pricing/order-as-placed.js';
import type { PricedOrder } from '../pricing/pricing.types.js';
import { testPromotion } from '../pricing/promotions/promotion.testing.js';
import type { Promotion } from '../pricing/promotions/promotion.types.js';
import { DomainError } from '../shared/errors.js';
import { decideOrderEdit, type EditedVariant, editRefusal, type LineChange } from './order-edit.decide.js';

/**
 * A model of one order for the property tests of issue #27 item 4 (src/order-edits/order-edit.properties.test.ts,
 * src/returns/order-lifecycle.properties.test.ts): a small catalog, the order's row and lines, and the steps the
 * services take on them, each through the pure rules the service asks (an edit decided by `decideOrderEdit` and written
 * as order-edits.service.ts writes it; payments and refunds moving the ledger's totals as payments.admin.ts does). No
 * database: what a step writes is what the service would write.
 */

/** The catalog: a counted, a scarce counted and an uncounted variant, each with a tax rate. */
export const CATALOG = [
  { id: 1, alias: 'mug', price: 1250, stock: 40, track: true, rate: '8.25' },
  { id: 2, alias: 'plate', price: 399, stock: 6, track: true, rate: '8.25' },
  { id: 3, alias: 'card', price: 150, stock: 0, track: false, rate: '0' },
] as const;

export const CATALOG_ALIASES = CATALOG.map((c) => c.alias);

/** 10 % off orders from 20.00: edits may make it apply or stop applying. */
export const tenPercent = testPromotion({
  id: 9,
  name: '10 % from 20.00',
  conditions: [{ type: 'min_subtotal', amountMinor: 2000 }],
  action: { type: 'order_percentage', percent: '10', products: null },
});

/** Half off the shipping fee: an order discount that is the shipping's, which a return may give back. */
export const halfOffShipping = testPromotion({
  id: 10,
  name: 'Half off shipping',
  action: { type: 'shipping_percentage', percent: '50' },
});

export interface PlacementTerms {
  promotions: readonly Promotion[];
  /** The shipping fee's tax rate; null (the default): shipping is not taxed. */
  shippingTaxRate?: string | null;
}

/** The model store: stock per variant, the order's row (figures and ledger totals) and lines. */
export class OrderModel {
  stock = new Map<number, number>(CATALOG.map((c) => [c.id, c.stock]));
  order: OrderRow;
  lines: OrderLineRow[] = [];
  basis: PlacedOrderBasis;
  private nextLineId = 1;

  private constructor(terms: PlacementTerms) {
    this.basis = {
      currency: 'USD',
      pricesIncludeTax: false,
      lines: [],
      shipping: { name: 'Ground', feeMinor: 500, taxRate: terms.shippingTaxRate ?? null },
      discountName: null,
      discountMinor: 0,
      promotions: terms.promotions,
    };
    this.order = {
      alias: 'o',
      status: 'pending',
      paymentStatus: 'unpaid',
      fulfillmentStatus: 'unfulfilled',
      pricesIncludeTax: false,
      total: 0,
      amountAuthorized: 0,
      amountCaptured: 0,
      amountRefunded: 0,
      amountCredited: 0,
      amountReturned: 0,
      amountCapturable: 0,
      promotions: [],
    } as unknown as OrderRow;
  }

  /** An order placed with these lines; undefined when placement refuses them (too little stock). */
  static place(initial: readonly LineChange[], terms: PlacementTerms): OrderModel | undefined {
    const model = new OrderModel(terms);
    // Placement is an edit of an empty order here: the same pricing, the same stock rule.
    return model.edit(initial) ? model : undefined;
  }

  ledger(): OrderLedger {
    return ledgerOfOrder(this.order);
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
          options: [],
          image: null,
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

  /** Writes a decided edit as the service does: lines, basis, stock, figures, payment status. */
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
        adjustments: p.adjustments.map((a) => ({ promotion_id: a.promotionId, amount: a.amountMinor })),
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
      shippingDiscount: priced.shippingDiscountMinor,
      shippingTax: priced.shippingTaxMinor,
      estimatedTax: priced.estimatedTaxMinor,
      total: priced.totalMinor,
      totalItems: priced.totalItems,
      // As the service keeps them (editedColumns): each promotion still applying, with what it took off now.
      promotions: priced.promotions.map((p) => ({
        id: p.id,
        name: p.name,
        code: p.code,
        kind: p.kind,
        amount: p.amountMinor,
      })),
    };
    this.order.paymentStatus = orderPaymentStatus(this.ledger());
  }

  /**
   * An edit as the service runs it (`editRefusal`, then `decideOrderEdit`, then the write): true when it was made,
   * false when refused (nothing changed). `fulfilled`: whether the order has a fulfillment that is not cancelled.
   */
  edit(changes: readonly LineChange[], context: { fulfilled: boolean } = { fulfilled: false }): boolean {
    if (editRefusal({ ...this.order, fulfilled: context.fulfilled })) return false;
    try {
      const decision = decideOrderEdit({
        order: this.order,
        lines: this.lines,
        basis: this.basis,
        changes,
        variants: this.variants(),
        roundingMode: 'half_up',
      });
      this.write(decision.priced, decision);
      return true;
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      return false;
    }
  }

  /**
   * What a payment change writes (payments.admin.ts, `recordChange`): the payment status from the ledger, and the
   * approval of a pending order that became paid or held in full.
   */
  private settle(before: OrderPaymentStatus): void {
    const ledger = this.ledger();
    const paymentStatus = orderPaymentStatus(ledger);
    const after = { status: this.order.status, paymentStatus, toPay: ledger.toPay };
    this.order.paymentStatus = paymentStatus;
    if (approvesOnPayment({ status: this.order.status, paymentStatus: before }, after)) this.order.status = 'approved';
  }

  /** The customer pays what the ledger asks (`toPay`), taken at once (automatic capture). */
  payInFull(): void {
    const before = this.order.paymentStatus;
    const { toPay } = this.ledger();
    this.order.amountAuthorized += toPay;
    this.order.amountCaptured += toPay;
    this.settle(before);
  }

  /** The customer pays what the ledger asks, held for the store to capture (manual capture). */
  authorizeInFull(): void {
    const before = this.order.paymentStatus;
    const { toPay } = this.ledger();
    this.order.amountAuthorized += toPay;
    this.order.amountCapturable += toPay;
    this.settle(before);
  }

  /**
   * A final capture of up to `amount` (all that is held when undefined) of what the payments hold: what it does not
   * take is released, as gateways do. Nothing held: nothing happens.
   */
  capture(amount?: number): void {
    const held = this.order.amountCapturable;
    const taken = Math.min(held, amount ?? held);
    if (held === 0 || taken <= 0) return;
    const before = this.order.paymentStatus;
    this.order.amountCaptured += taken;
    this.order.amountCapturable = 0;
    this.settle(before);
  }

  /**
   * A refund of `amount` of what the payments kept (at most what is refundable), credited beyond what is owed back
   * (`refundCredit`, with the ledger as it is before the refund). `gatewayFails`: the gateway refuses it, so the ledger
   * records nothing.
   */
  refund(amount: number, options: { gatewayFails?: boolean } = {}): void {
    const ledger = this.ledger();
    const refunded = Math.min(amount, ledger.refundable);
    if (refunded <= 0 || options.gatewayFails) return;
    const before = this.order.paymentStatus;
    this.order.amountCredited += refundCredit(ledger, refunded);
    this.order.amountRefunded += refunded;
    this.settle(before);
  }

  /**
   * A return's refund as payments/return-refunds.ts makes it: the order charges `amount` less (`amount_returned`),
   * then what that makes owed back (at most `amount`) is refunded from what the payments kept, so nothing of it is a
   * credit; the payment status follows the ledger even when the gateway refuses the refund.
   */
  refundReturned(amount: number, options: { gatewayFails?: boolean } = {}): void {
    this.order.amountReturned += amount;
    this.refund(Math.min(amount, this.ledger().refundDue), options);
    this.order.paymentStatus = orderPaymentStatus(this.ledger());
  }
}

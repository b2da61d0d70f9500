import type { ReturnRefundRow } from '../db/schema.js';
import { lineDisplayName } from '../orders/order-line.js';
import { ledgerOfOrder, returnedToCustomer } from '../orders/order-ledger.js';
import type { OrderLineRow, OrderRow } from '../orders/orders.repository.js';
import type { ReturnRefund } from '../pricing/return-refund.js';
import { currencyFormat } from '../shared/money.js';
import { refundOfReturn, returnableByLine, type ReturnUnits } from './return.decide.js';
import { returnStateMachine } from './return-states.js';
import type { ReturnReasonRow, ReturnWithLines } from './returns.repository.js';

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/** A refund's figures as a return keeps them. */
export function refundRow(refund: ReturnRefund): ReturnRefundRow {
  return {
    goods: refund.goodsMinor,
    discount: refund.discountMinor,
    tax: refund.taxMinor,
    shipping_fee: refund.shippingFeeMinor,
    shipping_discount: refund.shipping?.discountMinor ?? 0,
    shipping_tax: refund.shipping?.taxMinor ?? 0,
    amount: refund.amountMinor,
  };
}

/** Returns as the rules see them. */
export const unitsOfReturns = (returns: readonly ReturnWithLines[]): ReturnUnits[] =>
  returns.map((r) => ({
    status: r.status,
    lines: r.lines.map((l) => ({ lineId: l.orderLineId, quantity: l.quantity })),
  }));

const NO_SHIPPING = { shipping_fee: 0, shipping_discount: 0, shipping_tax: 0 };

/** The refunded returns before `id` (all of them when `id` is undefined), as the refund rule takes them. */
export function refundedBefore(returns: readonly ReturnWithLines[], id?: number) {
  return returns
    .filter((r) => r.status === 'refunded' && r.refund !== null && r.id !== id)
    .map((r) => ({
      lines: r.lines.map((l) => ({ lineId: l.orderLineId, quantity: l.quantity })),
      shipping: r.refund ?? NO_SHIPPING,
    }));
}

/** What refunding a return now gives back (`shipping`: with what is left of the shipping): the one rule. */
export function refundNow(
  context: { order: OrderRow; lines: readonly OrderLineRow[]; returns: readonly ReturnWithLines[] },
  ret: ReturnWithLines,
  options: { shipping: boolean },
): ReturnRefund {
  const { order } = context;
  return refundOfReturn({
    pricesIncludeTax: order.pricesIncludeTax,
    lines: new Map(context.lines.map((l) => [l.id, l])),
    returning: ret.lines.map((l) => ({ lineId: l.orderLineId, quantity: l.quantity })),
    refundedBefore: refundedBefore(context.returns, ret.id),
    shipping: options.shipping ? order : null,
  });
}

/** What refunding an open return would do now: lower the order's charge, and give back to the customer that much. */
function presentEstimate(
  context: { order: OrderRow; lines: readonly OrderLineRow[]; returns: readonly ReturnWithLines[] },
  ret: ReturnWithLines,
) {
  const { order } = context;
  const money = currencyFormat(order.currency);
  const amount = refundNow(context, ret, { shipping: false }).amountMinor;
  const withShipping = refundNow(context, ret, { shipping: true }).amountMinor;
  const toCustomer = (returned: number) =>
    returnedToCustomer(ledgerOfOrder({ ...order, amountReturned: order.amountReturned + returned }), returned);
  return {
    amount: money.format(amount),
    amount_with_shipping: money.format(withShipping),
    to_customer: money.format(toCustomer(amount)),
    to_customer_with_shipping: money.format(toCustomer(withShipping)),
  };
}

/**
 * A return as the API shows it (src/returns/return.schema.ts, `Return`): its lines with their reasons, what it gave
 * back once refunded, or what refunding it would give back now (with and without the shipping) while it is open.
 */
export function presentReturn(
  ret: ReturnWithLines,
  context: { order: OrderRow; lines: readonly OrderLineRow[]; returns: readonly ReturnWithLines[] },
) {
  const { order } = context;
  const money = currencyFormat(order.currency);
  const refund = ret.refund;
  const open = ret.status === 'requested' || ret.status === 'received';
  return {
    id: ret.id,
    order_alias: order.alias,
    status: ret.status,
    currency: order.currency,
    note: ret.note,
    requested_by: ret.requestedBy,
    reject_reason: ret.rejectReason,
    lines: ret.lines.map((l) => ({
      alias: l.alias,
      name: lineDisplayName(l),
      sku: l.sku,
      quantity: l.quantity,
      reason: { code: l.reasonCode, label: l.reasonLabel },
      restock: l.restock,
    })),
    refund:
      refund === null
        ? null
        : {
            goods: money.format(refund.goods),
            discount: money.format(refund.discount),
            tax: money.format(refund.tax),
            shipping: money.format(refund.shipping_fee - refund.shipping_discount),
            amount: money.format(refund.amount),
            shipping_included: ret.refundShipping,
          },
    estimated_refund: open ? presentEstimate(context, ret) : null,
    next_statuses: [...returnStateMachine.transitions[ret.status]],
    created_at: ret.createdAt.toISOString(),
    received_at: iso(ret.receivedAt),
    refunded_at: iso(ret.refundedAt),
    rejected_at: iso(ret.rejectedAt),
    cancelled_at: iso(ret.cancelledAt),
  };
}

/**
 * An order's returns, what each of its lines may still return, the reasons a return may give, and how the store has
 * returns sent back: what the order page needs to show its returns and offer a new one.
 */
export function presentOrderReturns(input: {
  order: OrderRow;
  lines: readonly OrderLineRow[];
  fulfillments: Parameters<typeof returnableByLine>[1];
  returns: readonly ReturnWithLines[];
  reasons: readonly ReturnReasonRow[];
  instructions: string | null;
}) {
  const { order, lines, returns } = input;
  const returnable = returnableByLine(
    lines.map((l) => l.id),
    input.fulfillments,
    unitsOfReturns(returns),
  );
  return {
    items: returns.map((r) => presentReturn(r, { order, lines, returns })),
    returnable: lines.map((l) => ({
      alias: l.alias,
      name: lineDisplayName(l),
      sku: l.sku,
      quantity: l.quantity,
      returnable: returnable.get(l.id) ?? 0,
    })),
    reasons: input.reasons.map(presentReason),
    return_instructions: input.instructions,
  };
}

export const presentReason = (r: ReturnReasonRow) => ({
  code: r.code,
  label: r.label,
  active: r.active,
  position: r.position,
});

import type { AddressSnapshot } from '../db/schema.js';
import { ledgerOfOrder } from './order-ledger.js';
import { formatRate } from '../pricing/pricing.presenter.js';
import type { CurrencyFormat } from '../shared/money.js';
import { currencyFormat, formatDecimal } from '../shared/money.js';
import { lineDisplayName, presentLineImage, presentOptions } from './order-line.js';
import type { OrderLineRow, OrderRow } from './orders.repository.js';

/** An order in a list: its figures without lines. Amounts in the order's own currency. */
export function presentOrderSummary(order: OrderRow) {
  const money: CurrencyFormat = currencyFormat(order.currency);
  return {
    order_id: order.id,
    order_alias: order.alias,
    status: order.status,
    payment_status: order.paymentStatus,
    fulfillment_status: order.fulfillmentStatus,
    created_at: order.createdAt.toISOString(),
    currency: order.currency,
    customer_id: order.userId,
    email: order.email,
    total_items: order.totalItems,
    subtotal: money.format(order.subtotal),
    discount: money.format(order.discount),
    shipping_fee: money.format(order.shippingFee),
    estimated_tax: money.format(order.estimatedTax),
    total: money.format(order.total),
    ledger: presentLedger(order, money),
  };
}

/** The order's ledger (src/orders/order-ledger.ts) in its currency. */
function presentLedger(order: OrderRow, money: CurrencyFormat) {
  const l = ledgerOfOrder(order);
  // Most figures of most orders are nothing (every placement's event shows a fresh ledger): formatted once.
  const zero = money.format(0);
  const format = (minor: number) => (minor === 0 ? zero : money.format(minor));
  return {
    authorized: format(l.authorized),
    captured: format(l.captured),
    refunded: format(l.refunded),
    returned: format(l.returned),
    credited: format(l.credited),
    capturable: format(l.capturable),
    refundable: format(l.refundable),
    balance_due: format(l.balanceDue),
    refund_due: format(l.refundDue),
    to_pay: format(l.toPay),
  };
}

/** What an order's page shows of a line (a stored line, or one about to be written). */
export type PresentedLine = Pick<
  OrderLineRow,
  | 'alias'
  | 'variantId'
  | 'productName'
  | 'variantName'
  | 'sku'
  | 'options'
  | 'image'
  | 'quantity'
  | 'unitPrice'
  | 'subtotal'
  | 'discount'
  | 'adjustments'
  | 'taxClassName'
  | 'taxRate'
  | 'tax'
  | 'total'
>;

/** Tax details rebuilt from the lines' snapshots: one entry per class and rate, plus shipping. */
function taxDetails(order: OrderRow, lines: readonly PresentedLine[], money: CurrencyFormat) {
  const groups = new Map<string, { tax_class: string; rate: string; tax: number }>();
  for (const line of lines) {
    if (line.tax === 0) continue;
    const key = `${line.taxClassName ?? ''}\u0000${line.taxRate}`;
    const group = groups.get(key) ?? { tax_class: line.taxClassName ?? '', rate: line.taxRate, tax: 0 };
    group.tax += line.tax;
    groups.set(key, group);
  }
  const details = [...groups.values()].map((g) => ({
    tax_class: g.tax_class,
    tax_percentage: formatRate(g.rate),
    tax_amount: money.format(g.tax),
  }));
  if (order.shippingTax > 0 && order.shippingTaxRate !== null) {
    details.push({
      tax_class: 'Shipping',
      tax_percentage: formatRate(order.shippingTaxRate),
      tax_amount: money.format(order.shippingTax),
    });
  }
  return details;
}

/**
 * An order with its lines, as the admin API shows it. The summary's fields come last: V8 adds keys written after a
 * spread on a slow path (docs/benchmarks.md), and every placement presents its order for its event. (Responses are
 * written in their schema's order.)
 */
export function presentOrder(order: OrderRow, lines: readonly PresentedLine[]) {
  const money = currencyFormat(order.currency);
  return {
    discount_name: order.discountName,
    promocode: order.promoCode,
    promotions: order.promotions.map((p) => ({
      id: p.id,
      name: p.name,
      code: p.code,
      kind: p.kind,
      amount: money.format(p.amount),
    })),
    shipping_discount: money.format(order.shippingDiscount),
    shipping_name: order.shippingName,
    total_without_tax: money.format(order.totalWithoutTax),
    prices_include_tax: order.pricesIncludeTax,
    lines: lines.map((l) => ({
      alias: l.alias,
      product_variant_id: l.variantId,
      name: lineDisplayName(l),
      product_name: l.productName,
      variant_name: l.variantName,
      sku: l.sku,
      options: presentOptions(l.options),
      image: presentLineImage(l.image),
      tax_class: l.taxClassName,
      quantity: l.quantity,
      unit_price: money.format(l.unitPrice),
      subtotal: money.format(l.subtotal),
      discount: money.format(l.discount),
      adjustments: l.adjustments.map((a) => ({ promotion_id: a.promotion_id, amount: money.format(a.amount) })),
      tax_rate: formatRate(l.taxRate),
      tax: money.format(l.tax),
      total: money.format(l.total),
    })),
    tax_details: taxDetails(order, lines, money),
    shipping_address: order.shippingAddress as AddressSnapshot | null,
    billing_address: order.billingAddress as AddressSnapshot | null,
    note: order.note,
    cancel_reason: order.cancelReason,
    updated_at: order.updatedAt.toISOString(),
    ...presentOrderSummary(order),
  };
}

/** The market an order was placed in, as its admin page shows it (`OrderMarket`): null for the default market. */
export function presentOrderMarket(
  order: Pick<OrderRow, 'currency' | 'exchangeRate' | 'totalInStoreCurrency' | 'total'>,
  market: { id: number; code: string; name: string; isDefault: boolean } | null,
  store: { storeCurrency: string },
) {
  if (market === null || market.isDefault) return null;
  const inStore = currencyFormat(store.storeCurrency);
  return {
    id: market.id,
    code: market.code,
    name: market.name,
    currency: order.currency,
    exchange_rate: order.exchangeRate === null ? '1' : formatDecimal(order.exchangeRate),
    store_currency: store.storeCurrency,
    total_in_store_currency: inStore.format(order.totalInStoreCurrency ?? order.total),
  };
}

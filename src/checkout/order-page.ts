import { addressLines } from '../addresses/address-lines.js';
import type { AddressSnapshot } from '../db/schema.js';
import { escapeHtml, htmlDocument } from '../http/html.js';
import type { PaymentOutcome } from '../payments/payment-states.js';
import { currencyFormat } from '../shared/money.js';
import {
  carrierText,
  fulfilmentStatusText,
  orderStatusText,
  paymentStatusText,
  shipmentStatusText,
} from '../orders/customer-words.js';
import { lineDisplayName, lineNamingAsSold } from '../orders/order-line.js';
import { ledgerOfOrder } from '../orders/order-ledger.js';
import type { OrderLineRow, OrderRow } from '../orders/orders.repository.js';
import type { FulfillmentWithLines } from '../orders/fulfillments.repository.js';

/**
 * An order as a plain page a browser shows without JavaScript: what was bought, what it cost
 * (each amount at its currency's exact precision, with the currency's code), where it goes, and
 * how the payment went. Every value from the database is escaped.
 */

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; background: #f4f4f5; color: #18181b; margin: 0; }
  main { max-width: 40rem; margin: 2rem auto; background: #fff; border-radius: .5rem; padding: 1.5rem; }
  h1 { font-size: 1.25rem; margin: 0 0 .25rem; } h2 { font-size: 1rem; margin: 1.5rem 0 .5rem; }
  .note { color: #71717a; font-size: .875rem; margin: 0; overflow-wrap: anywhere; }
  .outcome { padding: .75rem 1rem; border-radius: .375rem; margin: 1rem 0; font-weight: 600; }
  .succeeded { background: #dcfce7; } .failed, .cancelled { background: #fee2e2; } .pending { background: #fef9c3; }
  table { width: 100%; border-collapse: collapse; } th, td { padding: .25rem .5rem .25rem 0; text-align: left; }
  td.num, th.num { text-align: right; } tbody tr { border-top: 1px solid #e4e4e7; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: .25rem 1rem; margin: 0; }
  dt { color: #71717a; } dd { margin: 0; } address { font-style: normal; }
  .shop { margin: 1rem 0 0; padding: .75rem 1rem; border-radius: .375rem; background: #e0f2fe; }`;

/** "Nov 29, 2026", as the shop writes a date (in UTC: the page does not know the reader's zone). */
const PLACED_DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

const OUTCOME_TEXT: Record<PaymentOutcome, string> = {
  succeeded: 'Payment received. Thank you!',
  failed: 'The payment did not go through. You can try again from the store.',
  pending: 'Your payment is being confirmed. This page shows the latest when you reload it.',
  cancelled: 'The payment was cancelled. You can try again from the store.',
};

export interface OrderPageInput {
  order: OrderRow;
  lines: OrderLineRow[];
  /** How the attempt the payer came back from went, if they came back from one. */
  outcome?: PaymentOutcome;
  /** The order's shipments (fulfillments): those not cancelled are listed with their tracking links. */
  shipments?: readonly FulfillmentWithLines[];
  /**
   * The shop's page of this order with the link's token (decision 0030), where the guest returns items and pays what
   * is due; none when the service serves no shop.
   */
  shopLink?: string;
}

/** The shipments part: each shipment's state, carrier and number, tracking link and items. */
function shipmentsHtml(shipments: readonly FulfillmentWithLines[]): string {
  const shown = shipments.filter((f) => f.status !== 'cancelled');
  if (shown.length === 0) return '';
  const items = shown.map((f) => {
    const title = [f.carrier && carrierText(f.carrier), f.trackingNumber].filter(
      (v): v is string => v !== null && v !== '',
    );
    const track = f.trackingUrl
      ? ` · <a href="${escapeHtml(f.trackingUrl)}" rel="noopener noreferrer">Track this shipment</a>`
      : '';
    const units = f.lines.map((l) => `${l.quantity} × ${escapeHtml(lineDisplayName(l))}`).join(', ');
    return (
      `<li data-shipment-status="${escapeHtml(f.status)}"><strong>${escapeHtml(shipmentStatusText(f.status))}</strong>`
      + `${title.length > 0 ? ` · ${escapeHtml(title.join(' '))}` : ''}${track}<br>`
      + `<span class="note">${units}</span></li>`
    );
  });
  return `<h2>Shipments</h2>\n<ul>\n${items.join('\n')}\n</ul>`;
}

function addressHtml(address: AddressSnapshot): string {
  return addressLines(address)
    .map((s) => escapeHtml(s))
    .join('<br>');
}

/** What is left to pay (a balance due after an edit, or the rest after a parcel's capture), if anything. */
function balanceHtml(order: OrderRow, amount: (minor: number) => string): string {
  const { balanceDue } = ledgerOfOrder(order);
  if (balanceDue <= 0) return '';
  return `<dt>Balance due</dt><dd data-balance-due><strong>${amount(balanceDue)}</strong></dd>`;
}

/** A status as the customer reads it, its code kept in a data attribute (for scripts and tests). */
const fact = (name: string, code: string, text: (code: string) => string) =>
  `<dd data-${name}="${escapeHtml(code)}">${escapeHtml(text(code))}</dd>`;

/** The way to the shop's page of the order: returns and payment happen there. */
function shopLinkHtml(link: string | undefined): string {
  if (!link) return '';
  return (
    `<p class="shop"><a href="${escapeHtml(link)}">Open this order in the shop</a> to return items, pay what is due `
    + 'or see your returns.</p>'
  );
}

export function renderOrderPage({ order, lines, outcome, shipments = [], shopLink }: OrderPageInput): string {
  const money = currencyFormat(order.currency);
  const amount = (minor: number) => escapeHtml(`${money.format(minor)} ${order.currency}`);
  const note = (text: string | null) => (text ? `<br><span class="note">${escapeHtml(text)}</span>` : '');
  const rows = lines
    .map((l) => {
      const naming = lineNamingAsSold(l);
      return (
        `<tr><td>${escapeHtml(naming.name)}${note(naming.options)}${note(l.sku ? `SKU ${l.sku}` : null)}</td>`
        + `<td class="num">${l.quantity}</td>`
        + `<td class="num">${amount(l.unitPrice)}</td><td class="num">${amount(l.subtotal)}</td></tr>`
      );
    })
    .join('\n');
  const totals: [string, string][] = [['Subtotal', amount(order.subtotal)]];
  const named = (label: string, name: string | null) => (name ? `${label} (${escapeHtml(name)})` : label);
  if (order.discount > 0) totals.push([named('Discount', order.discountName), `−${amount(order.discount)}`]);
  if (order.shippingName !== null || order.shippingFee > 0) {
    totals.push([named('Shipping', order.shippingName), amount(order.shippingFee)]);
  }
  totals.push(['Tax', amount(order.estimatedTax)]);
  totals.push(['<strong>Total</strong>', `<strong>${amount(order.total)}</strong>`]);
  if (order.amountReturned > 0) totals.push(['Returned (refunded)', `−${amount(order.amountReturned)}`]);
  const address = order.shippingAddress as AddressSnapshot | null;
  const banner = outcome
    ? `<p class="outcome ${outcome}" data-payment-outcome="${outcome}">${escapeHtml(OUTCOME_TEXT[outcome])}</p>`
    : '';

  const body = `<h1>Order ${escapeHtml(order.alias)}</h1>
<p class="note">Placed ${escapeHtml(PLACED_DATE.format(order.createdAt))}</p>
${banner}
<dl>
<dt>Status</dt>${fact('order-status', order.status, orderStatusText)}
<dt>Payment</dt>${fact('payment-status', order.paymentStatus, paymentStatusText)}
<dt>Shipping</dt>${fact('fulfillment-status', order.fulfillmentStatus, fulfilmentStatusText)}
${balanceHtml(order, amount)}
</dl>
${shopLinkHtml(shopLink)}
<h2>Items</h2>
<table>
<thead><tr><th>Item</th><th class="num">Qty</th><th class="num">Price</th><th class="num">Total</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
<h2>Totals</h2>
<dl>
${totals.map(([label, value]) => `<dt>${label}</dt><dd>${value}</dd>`).join('\n')}
</dl>
${shipmentsHtml(shipments)}
${address ? `<h2>Shipping to</h2>\n<address>${addressHtml(address)}</address>` : ''}
<p class="note">The link to this page works for a limited time; your order number is ${escapeHtml(order.alias)}.</p>`;
  return htmlDocument({ title: `Order ${order.alias}`, style: STYLE, body });
}

import { addressLines } from '../addresses/address-lines.js';
import type { AddressSnapshot, LineImageRow } from '../db/schema.js';
import { IMAGE_WIDTHS, imagePath } from '../media/media.values.js';
import { ledgerOfOrder } from '../orders/order-ledger.js';
import { carrierText } from '../orders/customer-words.js';
import { lineNamingAsSold } from '../orders/order-line.js';
import type { OrderLineRow, OrderRow } from '../orders/orders.repository.js';
import { currencyFormat } from '../shared/money.js';
import { moneyDisplay } from '../shared/money-display.js';
import { html, type SafeHtml } from './html-template.js';

/**
 * The emails a customer gets about an order, as plain text and HTML from the same pieces: the
 * store's name, what the email says, the lines and totals (each amount at its currency's exact
 * precision, as a reader expects them: ¥8,860, KWD 16.630, €23.00), the address, and the link
 * that opens the order's page. Names and addresses are customer input: the HTML escapes every
 * value (the `html` tag), the text keeps each value on its line.
 */

export const orderEmailKinds = [
  'order_confirmation',
  'payment_received',
  'order_shipped',
  'order_cancelled',
  'order_expired',
  'order_changed',
  'return_requested',
  'return_received',
  'return_refunded',
  'return_rejected',
] as const;
export type OrderEmailKind = (typeof orderEmailKinds)[number];

export interface OrderEmailInput {
  kind: OrderEmailKind;
  storeName: string;
  order: OrderRow;
  lines: OrderLineRow[];
  /** The signed link to the order's page and how many days it works; shown by the kinds that carry one. */
  link?: { url: string; days: number };
  /** The order's shipments that went out, with their tracking links: the shipped email lists them. */
  shipments?: readonly Shipment[];
  /** The return a return email is about, as its event showed it. */
  returned?: ReturnedItems;
  /** How the store has returns sent back (RETURN_INSTRUCTIONS): the return-requested email says it. */
  returnInstructions?: string | null;
  /**
   * The service's public address (PUBLIC_BASE_URL, no trailing slash): a line's image is an absolute URL under it,
   * since a mail client has no page to resolve a path against. Absent: the lines show no images.
   */
  publicBaseUrl?: string;
}

/** A return as its emails tell of it: its number, its items, what it gave back (decimal text), why it was refused. */
export interface ReturnedItems {
  id: number;
  lines: readonly { name: string; quantity: number }[];
  /** What its refund gave back, in the order's currency; null before it is refunded. */
  amount: string | null;
  rejectReason: string | null;
}

/** A shipment as an email shows it: its carrier and tracking, and what it holds. */
export interface Shipment {
  carrier: string | null;
  trackingNumber: string | null;
  trackingUrl: string | null;
  lines: readonly { name: string; quantity: number }[];
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

interface KindText {
  subject: (alias: string) => string;
  heading: string;
  /**
   * What happened, in a sentence or two (plain text; escaped for the HTML part): `total` the order's total, `returned`
   * the return a return email is about, its amount given with the currency.
   */
  says: (order: OrderRow, total: string, returned?: ReturnedItems) => string;
  /** Whether the email shows the shipping address and the link to the order's page. */
  address: boolean;
  link: boolean;
}

const KINDS: Record<OrderEmailKind, KindText> = {
  order_confirmation: {
    subject: (alias) => `Order ${alias} received`,
    heading: 'Thank you for your order',
    says: (order) =>
      `We have received your order ${order.alias}.`
      + (order.paymentStatus === 'paid' ? ' It is paid.' : ' We will let you know when your payment has arrived.'),
    address: true,
    link: true,
  },
  payment_received: {
    subject: (alias) => `Payment received for order ${alias}`,
    heading: 'Payment received',
    says: (order, total) =>
      `We have received your payment of ${total} for order ${order.alias}. We will let you know when it ships.`,
    address: true,
    link: true,
  },
  order_shipped: {
    subject: (alias) => `Order ${alias} has shipped`,
    heading: 'Your order is on its way',
    // Shipped in parts (fulfillments): the email of each part says whether the rest is still to come.
    says: (order) =>
      order.fulfillmentStatus === 'partially_fulfilled' || order.fulfillmentStatus === 'partially_shipped'
        ? `Part of your order ${order.alias} has shipped; we will let you know when the rest does.`
        : `Your order ${order.alias} has shipped.`,
    address: true,
    link: true,
  },
  order_cancelled: {
    subject: (alias) => `Order ${alias} cancelled`,
    heading: 'Your order has been cancelled',
    says: (order) =>
      `Your order ${order.alias} has been cancelled.`
      + (order.paymentStatus === 'refunded' ? ' Your payment has been refunded.' : ''),
    address: false,
    link: false,
  },
  order_expired: {
    subject: (alias) => `Order ${alias} cancelled: not paid in time`,
    heading: 'Your order has expired',
    says: (order) =>
      `Your order ${order.alias} was cancelled because it was not paid in time. Nothing was charged; `
      + 'you are welcome to order again.',
    address: false,
    link: false,
  },
  order_changed: {
    subject: (alias) => `Order ${alias} changed`,
    heading: 'Your order has been changed',
    says: (order, total) =>
      `Your order ${order.alias} has been changed; its total is now ${total}.${dueSentence(order)}`,
    address: true,
    link: true,
  },
  return_requested: {
    subject: (alias) => `Return requested for order ${alias}`,
    heading: 'We have your return request',
    says: (order, _total, r) =>
      `We have your request to return ${unitsOf(r)} from order ${order.alias}${returnRef(r)}. Send the `
      + 'items back to us; we will let you know when they arrive, and refund you once we have checked them.',
    address: false,
    link: true,
  },
  return_received: {
    subject: (alias) => `Your return for order ${alias} has arrived`,
    heading: 'Your return has arrived',
    says: (order, _total, r) =>
      `We have received the ${unitsOf(r)} you sent back from order ${order.alias}${returnRef(r)}. `
      + 'We will let you know when your refund is on its way.',
    address: false,
    link: true,
  },
  return_refunded: {
    subject: (alias) => `Refund for your return from order ${alias}`,
    heading: 'Your refund is on its way',
    says: (order, _total, r) =>
      `We have refunded ${r?.amount ?? 'the money'} for the ${unitsOf(r)} you returned from order ${order.alias}`
      + `${returnRef(r)}. It goes back to the way you paid; your bank may take a few days to show it.`,
    address: false,
    link: true,
  },
  return_rejected: {
    subject: (alias) => `Your return for order ${alias} was not accepted`,
    heading: 'Your return was not accepted',
    says: (order, _total, r) =>
      `We could not accept your return of ${unitsOf(r)} from order ${order.alias}${returnRef(r)}`
      + (r?.rejectReason ? `: ${oneLine(r.rejectReason)}.` : '.')
      + ' Reply to this email if you have a question.',
    address: false,
    link: true,
  },
};

/** "1 item" / "3 items": the units of a return ("items" when the return is not known). */
function unitsOf(r: ReturnedItems | undefined): string {
  if (!r) return 'items';
  const units = r.lines.reduce((sum, l) => sum + l.quantity, 0);
  return units === 1 ? '1 item' : `${units} items`;
}

/** " (return 12)": which return an email is about, when known. */
const returnRef = (r: ReturnedItems | undefined): string => (r ? ` (return ${r.id})` : '');

/** What an order's ledger asks of the customer after a change: to pay what is due, or that money comes back. */
function dueSentence(order: OrderRow): string {
  const ledger = ledgerOfOrder(order);
  const amount = amountIn(order);
  if (ledger.toPay > 0) return ` ${amount(ledger.toPay)} is still to pay: open your order's page to pay it.`;
  if (ledger.refundDue > 0) return ` We will refund you ${amount(ledger.refundDue)}.`;
  return '';
}

/** Whether an email of this kind carries the link to the order's page (no link once the order is over). */
export const carriesOrderLink = (kind: OrderEmailKind): boolean => KINDS[kind].link;

/** A customer's value on one line of the text part: line breaks and control characters become spaces. */
const oneLine = (value: string): string => value.replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ').trim();

interface Figures {
  /**
   * `name`: "Product - Variant", or the product alone where the option values say the variant (`lineNamingAsSold`, as
   * the shop and the dashboard name a line); `options`: "Size: M, Colour: Black" (empty: none); `sku`: null when the
   * variant has none; `image`: its thumbnail (absolute URL), null when none.
   */
  lines: {
    quantity: number;
    name: string;
    options: string;
    sku: string | null;
    image: Thumbnail | null;
    unit: string;
    amount: string;
  }[];
  /** `deducted`: an amount taken off (the discount), shown with a minus. */
  totals: { label: string; amount: string; deducted?: boolean; strong?: boolean }[];
}

/**
 * An amount of the order as a reader expects it (`moneyDisplay`, in English as the emails are): ¥8,860, KWD 16.630,
 * €23.00, $12.30, at the currency's exact precision.
 */
function amountIn(order: OrderRow): (minor: number) => string {
  return moneyDisplay(order.currency);
}

/** A line's image in an email: a JPEG (every mail client shows one) at the smallest width, shown 64 pixels wide. */
interface Thumbnail {
  url: string;
  alt: string;
  width: number;
  height: number;
}

const THUMBNAIL_WIDTH = 64;

function thumbnailOf(image: LineImageRow | null, publicBaseUrl: string | undefined): Thumbnail | null {
  if (image === null || publicBaseUrl === undefined) return null;
  return {
    url: `${publicBaseUrl}${imagePath(image.key, { width: IMAGE_WIDTHS[0], format: 'jpg' })}`,
    alt: oneLine(image.alt),
    width: THUMBNAIL_WIDTH,
    height: Math.max(1, Math.round((image.height * THUMBNAIL_WIDTH) / image.width)),
  };
}

/** Lines at their subtotal (quantity × unit price), then the order's totals: they add up as shown. */
function figures(order: OrderRow, lines: OrderLineRow[], publicBaseUrl?: string): Figures {
  const amount = amountIn(order);
  const named = (label: string, names: (string | null)[]) => {
    const known = names.filter((n): n is string => n !== null && n !== '').map(oneLine);
    return known.length > 0 ? `${label} (${known.join(', ')})` : label;
  };
  const totals: Figures['totals'] = [{ label: 'Subtotal', amount: amount(order.subtotal) }];
  if (order.discount > 0) {
    // The name pricing gave the discount says which promotion it was ("Promo code SAVE10").
    const name = order.discountName ?? (order.promoCode ? `code ${order.promoCode}` : null);
    totals.push({ label: named('Discount', [name]), amount: amount(order.discount), deducted: true });
  }
  if (order.shippingName !== null || order.shippingFee > 0) {
    totals.push({ label: named('Shipping', [order.shippingName]), amount: amount(order.shippingFee) });
  }
  totals.push({ label: order.pricesIncludeTax ? 'Tax (included)' : 'Tax', amount: amount(order.estimatedTax) });
  totals.push({ label: 'Total', amount: amount(order.total), strong: true });
  return {
    lines: lines.map((l) => ({
      quantity: l.quantity,
      name: oneLine(lineNamingAsSold(l).name),
      options: l.options.map((o) => `${oneLine(o.name)}: ${oneLine(o.value)}`).join(', '),
      image: thumbnailOf(l.image, publicBaseUrl),
      sku: l.sku === null || l.sku.trim() === '' ? null : oneLine(l.sku),
      unit: amount(l.unitPrice),
      amount: amount(l.subtotal),
    })),
    totals,
  };
}

interface Parts {
  subject: string;
  heading: string;
  says: string;
  storeName: string;
  figures: Figures;
  address: string[];
  link: OrderEmailInput['link'];
  /**
   * One entry per part the email tells of (a shipment, the return, how to send it back): its heading ("Shipment: UPS
   * 1Z…", "Items returned"), its tracking link if any, and its items.
   */
  parcels: { heading: string; url: string | null; items: string[] }[];
}

function renderText(p: Parts): string {
  const sections = [
    p.heading,
    p.says,
    [
      ...p.figures.lines.map(
        (l) =>
          `${l.quantity} × ${l.name}${l.options ? ` (${l.options})` : ''}${l.sku ? ` (SKU ${l.sku})` : ''}`
          + ` (${l.unit} each): ${l.amount}`,
      ),
      '',
      ...p.figures.totals.map((t) => `${t.label}: ${t.deducted ? '-' : ''}${t.amount}`),
    ].join('\n'),
  ];
  for (const s of p.parcels)
    sections.push([s.heading, ...s.items, ...(s.url ? [`Track it: ${s.url}`] : [])].join('\n'));
  if (p.address.length > 0) sections.push(['Shipping to:', ...p.address].join('\n'));
  if (p.link) sections.push(`See your order (this link works ${p.link.days} days):\n${p.link.url}`);
  sections.push(p.storeName);
  return `${sections.join('\n\n')}\n`;
}

const CELL = 'padding:4px 8px 4px 0;text-align:left;vertical-align:top';
const NUM = 'padding:4px 0 4px 8px;text-align:right;vertical-align:top;white-space:nowrap';

function renderHtml(input: Parts): string {
  const f = input.figures;
  const lineRows = f.lines.map(
    (l) =>
      html`<tr style="border-top:1px solid #e4e4e7"><td style="${CELL}">${lineImage(l.image)}${l.name}${
        l.options ? html`<br><span style="color:#52525b;font-size:14px">${l.options}</span>` : html``
      }${
        l.sku ? html`<br><span style="color:#71717a;font-size:12px">SKU ${l.sku}</span>` : html``
      }</td><td style="${NUM}">${l.quantity}</td>
<td style="${NUM}">${l.unit}</td><td style="${NUM}">${l.amount}</td></tr>`,
  );
  const totalRows = f.totals.map((t) => {
    const amount = t.deducted ? `−${t.amount}` : t.amount;
    return t.strong
      ? html`<tr><td style="${CELL}"><strong>${t.label}</strong></td><td style="${NUM}"><strong>${amount}</strong></td></tr>`
      : html`<tr><td style="${CELL}">${t.label}</td><td style="${NUM}">${amount}</td></tr>`;
  });
  const address =
    input.address.length > 0
      ? html`<h2 style="font-size:16px;margin:24px 0 8px">Shipping to</h2>
<p style="margin:0">${joinLines(input.address)}</p>`
      : html``;
  const parcels = input.parcels.map(
    (s) => html`<h2 style="font-size:16px;margin:24px 0 8px">${s.heading}</h2>
<p style="margin:0">${joinLines(s.items)}</p>${
      s.url
        ? html`<p style="margin:8px 0 0"><a href="${s.url}" style="color:#1d4ed8">Track this shipment</a></p>`
        : html``
    }`,
  );
  const link = input.link
    ? html`<p style="margin:24px 0 0"><a href="${input.link.url}" style="color:#1d4ed8">See your order</a>
<span style="color:#71717a">(this link works ${input.link.days} days)</span></p>`
    : html``;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${input.subject}</title>
</head>
<body style="margin:0;padding:16px;background:#f4f4f5;color:#18181b;font:16px/1.5 system-ui,sans-serif">
<div style="max-width:36rem;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<p style="margin:0 0 16px;color:#71717a">${input.storeName}</p>
<h1 style="font-size:20px;margin:0 0 8px">${input.heading}</h1>
<p style="margin:0 0 16px">${input.says}</p>
<table role="presentation" style="width:100%;border-collapse:collapse">
<thead><tr><th style="${CELL}">Item</th><th style="${NUM}">Qty</th><th style="${NUM}">Price</th><th style="${NUM}">Amount</th></tr></thead>
<tbody>
${lineRows}
</tbody>
</table>
<table role="presentation" style="width:100%;border-collapse:collapse;margin-top:16px">
${totalRows}
</table>
${parcels}
${address}
${link}
</div>
</body>
</html>
`.value;
}

/** A line's thumbnail, floated left of its name, with its box and alt text. */
const lineImage = (image: Thumbnail | null): SafeHtml =>
  image === null
    ? html``
    : html`<img src="${image.url}" alt="${image.alt}" width="${String(image.width)}" height="${String(image.height)}"
 style="float:left;margin:0 8px 4px 0;border-radius:4px;border:0">`;

/** Lines of text, each escaped, one under the other. */
const joinLines = (lines: string[]): SafeHtml[] => lines.map((l, i) => (i === 0 ? html`${l}` : html`<br>${l}`));

/** A shipment's part of the shipped email: carrier and number as its title, its items, its tracking link. */
function shipmentPart(s: Shipment): Parts['parcels'][number] {
  const title = [s.carrier && carrierText(s.carrier), s.trackingNumber]
    .filter((v): v is string => v !== null && v !== '')
    .map(oneLine);
  return {
    heading: `Shipment: ${title.length > 0 ? title.join(' ') : 'no tracking number'}`,
    url: s.trackingUrl,
    items: s.lines.map((l) => `${l.quantity} × ${oneLine(l.name)}`),
  };
}

/** Subject, text and HTML of one email about `order`, from the store `storeName`. */
export function renderOrderEmail(input: OrderEmailInput): RenderedEmail {
  const kind = KINDS[input.kind];
  const f = figures(input.order, input.lines, input.publicBaseUrl);
  const storeName = oneLine(input.storeName);
  const subject = `${storeName}: ${kind.subject(input.order.alias)}`;
  const returned = input.returned && {
    ...input.returned,
    amount:
      input.returned.amount === null
        ? null
        : amountIn(input.order)(currencyFormat(input.order.currency).parse(input.returned.amount)),
  };
  const says = kind.says(input.order, amountIn(input.order)(input.order.total), returned);
  const shippingAddress = input.order.shippingAddress as AddressSnapshot | null;
  const address =
    kind.address && shippingAddress
      ? addressLines(shippingAddress)
          .map(oneLine)
          .filter((l) => l !== '')
      : [];
  const link = kind.link ? input.link : undefined;
  const parcels = (input.kind === 'order_shipped' ? (input.shipments ?? []) : []).map(shipmentPart);
  if (returned)
    parcels.push({
      heading: 'Items returned',
      url: null,
      items: returned.lines.map((l) => `${l.quantity} × ${oneLine(l.name)}`),
    });
  if (input.kind === 'return_requested' && input.returnInstructions)
    parcels.push({ heading: 'How to send them back', url: null, items: [oneLine(input.returnInstructions)] });
  const parts: Parts = { subject, heading: kind.heading, says, storeName, figures: f, address, link, parcels };
  return { subject, text: renderText(parts), html: renderHtml(parts) };
}

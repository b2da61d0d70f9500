// An order's status, payment status, shipments and returns in the customer's words: the shop's pages and the
// service's own order page (src/checkout/order-page.ts) say them alike.

const STATUS: Record<string, string> = {
  pending: 'Received',
  approved: 'Confirmed',
  processing: 'Being prepared',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
};

const PAYMENT: Record<string, string> = {
  unpaid: 'Not paid yet',
  authorized: 'Payment authorized',
  partially_paid: 'Partly paid',
  paid: 'Paid',
  partially_refunded: 'Paid, partly refunded',
  refunded: 'Refunded',
  overpaid: 'Paid (a refund is due)',
};

export function orderStatusText(status: string): string {
  return STATUS[status] ?? status;
}

export function paymentStatusText(paymentStatus: string): string {
  return PAYMENT[paymentStatus] ?? paymentStatus;
}

/** "24 Nov 2026, 14:05" in the browser's language. */
export function dateTimeText(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

const FULFILMENT: Record<string, string> = {
  unfulfilled: 'Not shipped yet',
  partially_fulfilled: 'Part of it is being packed',
  fulfilled: 'Packed, about to ship',
  partially_shipped: 'Partly shipped: the rest follows',
  shipped: 'Shipped',
  delivered: 'Delivered',
  partially_returned: 'Partly returned',
  returned: 'Returned',
};

const SHIPMENT: Record<string, string> = {
  pending: 'Being packed',
  shipped: 'On its way',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
};

/** How far the order has gone out (its `fulfillment_status`), in words. */
export function fulfilmentStatusText(fulfillmentStatus: string): string {
  return FULFILMENT[fulfillmentStatus] ?? fulfillmentStatus;
}

/** A shipment's state in words. */
export function shipmentStatusText(status: string): string {
  return SHIPMENT[status] ?? status;
}

const RETURN: Record<string, string> = {
  requested: 'Requested: waiting for the items to reach the shop',
  received: 'Items received: your refund is being prepared',
  refunded: 'Refunded',
  rejected: 'Not accepted',
  cancelled: 'Cancelled',
};

/** A return's state in words. */
export function returnStatusText(status: string): string {
  return RETURN[status] ?? status;
}

/** The carriers whose short names people write otherwise ("ups" is UPS); a carrier not here is written as given. */
const CARRIERS: Record<string, string> = { ups: 'UPS', usps: 'USPS', fedex: 'FedEx', dhl: 'DHL' };

/** A shipment's carrier as people write it: "UPS" for "ups" or "Ups", "Royal Mail" as given. */
export function carrierText(carrier: string): string {
  const trimmed = carrier.trim();
  return CARRIERS[trimmed.toLowerCase()] ?? trimmed;
}

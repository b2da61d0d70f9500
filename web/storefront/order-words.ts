// An order's status and payment status in the shopper's words.

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

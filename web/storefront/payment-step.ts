// What an order's page says and offers about paying, decided from the order's ledger and its payment attempts. Pure
// (no I/O, no imports) so it is tested on its own (test/storefront-payment-step.test.ts). Amounts stay the API's
// decimal strings: they are compared with zero, never computed with.

/** The part of an order (GET /order/storefront/api/orders/{alias}/) this needs. */
export interface OrderMoney {
  status: string;
  payment_status: string;
  currency: string;
  ledger: { to_pay: string; refund_due: string; refunded: string; capturable: string; captured: string };
}

/** The part of a payment attempt (GET /payment/storefront/api/orders/{alias}/payments/) this needs. */
export interface Attempt {
  id: number;
  plugin_id: string;
  status: string;
  url: string | null;
}

/** The part of a payment plugin (GET /payment/storefront/api/plugins/) this needs. */
export interface Method {
  id: string;
  name: string;
  manual_capture: boolean;
}

/** An attempt the shopper started and may still finish: at its gateway, or (manual capture) on delivery. */
export interface OpenAttempt {
  id: number;
  pluginId: string;
  /** The plugin's name, or its id in words while the plugins are not known. */
  name: string;
  url: string;
  /** No gateway takes this money: an admin records it (cash on delivery). */
  manual: boolean;
}

export type PaymentStep =
  /**
   * Something is to pay: the Pay form, and the attempt already open if there is one; `paid`, what was taken already
   * when some was (a balance after the order changed, or the rest of a partial payment).
   */
  | { kind: 'pay'; toPay: string; open?: OpenAttempt; paid?: string }
  /** The money is held; it is taken when the order ships. */
  | { kind: 'authorized'; amount: string }
  /** More was taken than the order charges (or a paid order was cancelled): the shop owes this back. */
  | { kind: 'refund_due'; amount: string }
  /** Nothing is due and part or all of what was paid was given back. */
  | { kind: 'refunded'; amount: string; whole: boolean }
  /** Nothing to say or offer: paid, or cancelled with nothing owed back. */
  | { kind: 'settled' };

/** "0.00", "0" (a currency without decimals): no money. */
export function isZeroAmount(amount: string): boolean {
  return /^0*(\.0*)?$/.test(amount);
}

/** The latest attempt still open (pending, with a page to send the payer to), with its method's name. */
export function openAttempt(attempts: readonly Attempt[], methods: readonly Method[] = []): OpenAttempt | undefined {
  let open: { id: number; plugin_id: string; url: string } | undefined;
  for (const a of attempts) {
    if (a.status === 'pending' && a.url && (open === undefined || a.id > open.id)) open = { ...a, url: a.url };
  }
  if (open === undefined) return undefined;
  const method = methods.find((m) => m.id === open.plugin_id);
  return {
    id: open.id,
    pluginId: open.plugin_id,
    name: method?.name ?? open.plugin_id.replace(/_/g, ' '),
    url: open.url,
    manual: method?.manual_capture ?? false,
  };
}

export function paymentStep(input: {
  order: OrderMoney;
  attempts: readonly Attempt[];
  methods?: readonly Method[];
}): PaymentStep {
  const { order } = input;
  const { ledger } = order;
  if (order.status !== 'cancelled' && !isZeroAmount(ledger.to_pay)) {
    const open = openAttempt(input.attempts, input.methods);
    return {
      kind: 'pay',
      toPay: ledger.to_pay,
      ...(open && { open }),
      ...(!isZeroAmount(ledger.captured) && { paid: ledger.captured }),
    };
  }
  switch (order.payment_status) {
    case 'authorized':
      return { kind: 'authorized', amount: ledger.capturable };
    case 'overpaid':
      return { kind: 'refund_due', amount: ledger.refund_due };
    case 'partially_refunded':
    case 'refunded':
      return { kind: 'refunded', amount: ledger.refunded, whole: order.payment_status === 'refunded' };
    default:
      return { kind: 'settled' };
  }
}

/**
 * Whether a gateway may still report on this order by itself (its webhook on the way): something is to pay and an
 * attempt at an online gateway is open. Worth reading the order again; cash on delivery waits for an admin instead.
 */
export function awaitsGateway(step: PaymentStep): boolean {
  return step.kind === 'pay' && step.open !== undefined && !step.open.manual;
}

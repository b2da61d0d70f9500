import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * The only module a payment plugin imports. A plugin is a folder `src/payments/plugins/<id>/`
 * (or an npm package named in PAYMENT_PLUGINS) whose index default-exports a `PaymentPlugin`.
 * Plugins never touch the database: they talk to their gateway and translate its webhooks into
 * normalised events; the payments module does the bookkeeping through one state machine.
 */

/** Money as the gateway must see it: integer minor units of an ISO 4217 currency. */
export interface Money {
  amountMinor: number;
  /** Upper-case ISO 4217 code, e.g. "USD". */
  currency: string;
  /** Minor-unit digits of the currency (2 for USD, 0 for JPY, 3 for KWD). */
  exponent: number;
}

/** What the service tells a plugin about the order being paid. Nothing about the payer's card. */
export interface OrderSummary {
  alias: string;
  email: string | null;
  totalItems: number;
}

/**
 * How the money of an attempt is taken: `automatic` captures it as soon as the payer pays; `manual` only authorizes
 * it (the gateway holds it) and the store captures all or part of it later, or voids it (PAYMENT_CAPTURE).
 * A plugin is asked for `manual` only when it declares the `authorize` capability.
 */
export type CaptureMethod = 'automatic' | 'manual';

/**
 * What a plugin can do, declared on the plugin: the service offers only these (an admin's capture, void or refund
 * through a plugin without the capability is refused, or only recorded where the money moves outside the service).
 * - `authorize`: can hold money without taking it (start() with captureMethod `manual`);
 * - `capture`: can take held money (gateway.capture); `partial_capture`: less than was held;
 * - `void`: can release held money (gateway.void);
 * - `refund`: can give captured money back (gateway.refund); `partial_refund`: part of it.
 */
export type PaymentCapability = 'authorize' | 'capture' | 'partial_capture' | 'void' | 'refund' | 'partial_refund';

export interface StartInput {
  /** The service's reference for this attempt: give it to the gateway and send it back in events. */
  reference: string;
  order: OrderSummary;
  amount: Money;
  /** `manual`: authorize only (the plugin declared `authorize`); `automatic` otherwise. */
  captureMethod: CaptureMethod;
  returnUrl: string;
  cancelUrl: string;
  /** Stable for this attempt; pass it to the gateway's own idempotency mechanism. */
  idempotencyKey: string;
}

export interface StartResult {
  /** Where the payer goes to pay. */
  redirectUrl: string;
  /** The gateway's id of the attempt (e.g. a Checkout Session id). */
  gatewayRef: string;
}

/**
 * Normalised kinds of gateway event (Medusa-style): what happened to the money.
 * - `succeeded`: paid and captured (automatic capture): amount = the amount captured;
 * - `authorized`: held, not taken (manual capture): amount = the amount authorized;
 * - `captured`: held money taken: amount = the TOTAL captured so far on this payment;
 * - `voided`: the authorization was released (what was not captured is given back to the payer);
 * - `refunded`: amount = the TOTAL refunded so far on this payment;
 * - `pending`, `failed`, `expired`: the attempt is waiting, refused, or timed out; `ignored`: nothing to do.
 */
export type GatewayEventKind =
  | 'pending'
  | 'authorized'
  | 'succeeded'
  | 'captured'
  | 'voided'
  | 'failed'
  | 'expired'
  | 'refunded'
  | 'ignored';

/**
 * An event a payment gateway sent, as its plugin's `parseWebhook` normalises it (what the store sends out to its own
 * webhook endpoints is another thing: `OutboundEvent`, src/webhooks/webhook-events.ts).
 */
export interface GatewayEvent {
  /** The gateway's event id: the same event delivered twice has the same id. */
  eventId: string;
  kind: GatewayEventKind;
  /** How to find the payment: the service's reference, or a gateway id the service stored. */
  match: { reference?: string; gatewayRef?: string; gatewayPaymentRef?: string };
  /**
   * succeeded: the amount captured; authorized: the amount held; captured and refunded: the TOTAL captured or
   * refunded so far on this payment (not this one movement alone), so repeated or reordered events can't
   * double-count.
   */
  amount?: Money;
  /** authorized: when the gateway lets the authorization lapse, if it says. */
  authorizationExpiresAt?: Date;
  /** A gateway id of the money movement to remember for later events (e.g. a PaymentIntent id). */
  gatewayPaymentRef?: string;
}

export interface WebhookRequest {
  headers: IncomingHttpHeaders;
  /** The body exactly as received: signatures are computed over these bytes. */
  rawBody: Buffer;
}

/** The service's operation on an attempt: a capture, void or refund, each with a key stable across retries. */
interface OperationInput {
  reference: string;
  gatewayRef: string | null;
  gatewayPaymentRef: string | null;
  /** Stable for this one operation: a retry after a timeout passes the same key, so the gateway does it once. */
  idempotencyKey: string;
}

export interface CaptureInput extends OperationInput {
  /** This capture's amount (not cumulative); less than authorized only with `partial_capture`. */
  amount: Money;
  /**
   * Whether this is the last capture of the authorization: the gateway releases what it does not take (Stripe's
   * behaviour for every capture). The service always sends true today.
   */
  final: boolean;
}

export type VoidInput = OperationInput;

/** What a pending attempt that the payer abandoned (they chose another method) tells the gateway. */
export type CancelAttemptInput = Omit<OperationInput, 'idempotencyKey'>;

export interface RefundInput {
  reference: string;
  gatewayRef: string | null;
  gatewayPaymentRef: string | null;
  /** This refund's amount (not cumulative). */
  amount: Money;
  idempotencyKey: string;
}

/** Thrown by parseWebhook when the signature is missing, wrong or stale: the answer is a 400. */
export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/** Thrown by configure() when the plugin's settings are missing or wrong: the service won't start. */
export class PluginConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PluginConfigError';
  }
}

/**
 * Thrown by start(), capture(), void() or refund() when the gateway refuses or can't be reached (answered 502).
 * `retryable`: the outcome is unknown or the gateway is briefly unavailable; the service keeps the operation open
 * and a retry sends the same idempotency key.
 */
export class GatewayError extends Error {
  constructor(
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'GatewayError';
  }
}

/**
 * Thrown when the gateway cannot take this amount exactly in its currency (Stripe takes KWD only in steps of 0.010):
 * by checkAmount() before anything is written, or by start(), capture() or refund() before the gateway is called.
 * Never retryable, and never a reason to round: the customer pays exactly what was shown, or not through this
 * gateway. The service answers 422 `amount_not_chargeable`.
 */
export class UnchargeableAmountError extends GatewayError {
  constructor(message: string) {
    super(message, false);
    this.name = 'UnchargeableAmountError';
  }
}

/** What the service hands a plugin when it is enabled. */
export interface PluginContext {
  /** PUBLIC_BASE_URL, without a trailing slash. */
  publicBaseUrl: string;
  /**
   * One of the secrets the plugin declares in `secrets`, e.g. to sign its own webhooks: generated
   * once and kept in the store's database, the same in every process of the store.
   */
  secret(name: string): string;
  /**
   * Delivers a webhook to this plugin's webhook route inside the service, exactly as a gateway
   * would over HTTP (used by gateways the service hosts itself, like the sandbox).
   */
  deliverWebhook(request: { headers: Record<string, string>; rawBody: Buffer }): Promise<{ status: number }>;
}

/** An enabled plugin: what the payments module calls. */
export interface PaymentGateway {
  /**
   * Optional, pure: throws UnchargeableAmountError when the gateway cannot take `amount` exactly in its currency
   * (its own minor units, steps such as Stripe's 0.010 KWD). The service asks before it opens an attempt, so a
   * payment that could not be charged exactly is refused (422) with nothing written.
   */
  checkAmount?(amount: Money): void;
  start(input: StartInput): Promise<StartResult>;
  /** Verifies the signature over the raw body before anything else, then normalises the events. */
  parseWebhook(request: WebhookRequest): Promise<GatewayEvent[]>;
  /** Present when the gateway can refund; otherwise refunds are only recorded. */
  refund?(input: RefundInput): Promise<{ gatewayRef: string }>;
  /** Takes (part of) authorized money: with the `capture` capability. */
  capture?(input: CaptureInput): Promise<{ gatewayRef: string }>;
  /** Releases an authorization: with the `void` capability. */
  void?(input: VoidInput): Promise<void>;
  /**
   * Best effort: closes a pending attempt the payer abandoned for another (a Checkout Session expired), so it can no
   * longer be paid. A payment that still arrives is recorded all the same (the order shows overpaid).
   */
  cancelAttempt?(input: CancelAttemptInput): Promise<void>;
  /** Pages or endpoints the plugin serves itself (the sandbox's checkout page). No database access. */
  routes?(app: FastifyInstance): Promise<void>;
}

/** How the plugin is being enabled, for plugins whose default depends on it. */
export interface PluginSituation {
  /** PAYMENT_PLUGINS names plugins explicitly (otherwise every installed, configured one is on). */
  explicit: boolean;
  /** The service runs on its embedded database (a demo or development store). */
  embeddedDatabase: boolean;
}

export interface PaymentPlugin<Config = unknown> {
  /** Equals the folder name: lowercase words joined by "_", e.g. "cash_on_delivery". */
  readonly id: string;
  /** Shown to shoppers, e.g. "Cash on delivery". */
  readonly name: string;
  /** True when an admin records the payment by hand (POST …/payments/{id}/capture/): cash on delivery. */
  readonly manualCapture?: boolean;
  /**
   * What the plugin can do (see PaymentCapability). Without it: `refund` and `partial_refund` when the gateway has
   * refund().
   */
  readonly capabilities?: readonly PaymentCapability[];
  /** Names of the secrets create() reads with context.secret(name); the service makes them beforehand. */
  readonly secrets?: readonly string[];
  /**
   * Reads and validates the plugin's settings from the environment; throws PluginConfigError
   * naming the variable when one is missing or wrong. Returns undefined when the plugin is simply
   * not configured (it is then skipped unless PAYMENT_PLUGINS names it).
   */
  configure(env: Record<string, string | undefined>, situation: PluginSituation): Config | undefined;
  create(config: Config, context: PluginContext): PaymentGateway;
}

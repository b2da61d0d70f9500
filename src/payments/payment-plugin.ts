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

export interface StartInput {
  /** The service's reference for this attempt: give it to the gateway and send it back in events. */
  reference: string;
  order: OrderSummary;
  amount: Money;
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

/** Normalised kinds of gateway event (Medusa-style): what happened to the money. */
export type WebhookEventKind = 'pending' | 'succeeded' | 'failed' | 'expired' | 'refunded' | 'ignored';

export interface WebhookEvent {
  /** The gateway's event id: the same event delivered twice has the same id. */
  eventId: string;
  kind: WebhookEventKind;
  /** How to find the payment: the service's reference, or a gateway id the service stored. */
  match: { reference?: string; gatewayRef?: string; gatewayPaymentRef?: string };
  /**
   * succeeded: the amount captured; refunded: the TOTAL refunded so far on this payment (not this
   * refund alone), so repeated or reordered refund events can't double-count.
   */
  amount?: Money;
  /** A gateway id of the money movement to remember for later events (e.g. a PaymentIntent id). */
  gatewayPaymentRef?: string;
}

export interface WebhookRequest {
  headers: IncomingHttpHeaders;
  /** The body exactly as received: signatures are computed over these bytes. */
  rawBody: Buffer;
}

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

/** Thrown by start() or refund() when the gateway refuses or can't be reached (answered 502). */
export class GatewayError extends Error {
  constructor(
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'GatewayError';
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
  start(input: StartInput): Promise<StartResult>;
  /** Verifies the signature over the raw body before anything else, then normalises the events. */
  parseWebhook(request: WebhookRequest): Promise<WebhookEvent[]>;
  /** Present when the gateway can refund; otherwise refunds are only recorded. */
  refund?(input: RefundInput): Promise<{ gatewayRef: string }>;
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
  /** True when an admin records the payment by hand (POST …/payments/{id}/capture/). */
  readonly manualCapture?: boolean;
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

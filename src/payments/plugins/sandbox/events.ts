import { randomBytes } from 'node:crypto';
import { currencyExponent, isSupportedCurrency } from '../../../shared/currency.js';
import { type GatewayEvent, type GatewayEventKind, WebhookSignatureError } from '../../payment-plugin.js';

/** The sandbox's webhook body, shaped like a real gateway's event. */
export interface SandboxEvent {
  /** `evt_<random>`: a new id per click, the same id when the same delivery is repeated. */
  id: string;
  type: SandboxEventType;
  /** Unix seconds. */
  created: number;
  data: {
    /** The service's payment reference, given to start(). */
    reference: string;
    /**
     * Minor units. payment.authorized: the amount held; payment.captured and payment.refunded: the total captured or
     * refunded so far, not this movement alone; payment.voided: the amount that was held (not reported on).
     */
    amount: number;
    currency: string;
    /** payment.authorized only, optional: Unix seconds when the hold lapses. */
    authorization_expires_at?: number;
  };
}

const KINDS = {
  'payment.authorized': 'authorized',
  'payment.captured': 'captured',
  'payment.voided': 'voided',
  'payment.succeeded': 'succeeded',
  'payment.failed': 'failed',
  'payment.expired': 'expired',
  'payment.refunded': 'refunded',
} as const satisfies Record<string, GatewayEventKind>;

export type SandboxEventType = keyof typeof KINDS;

/** The kinds whose event carries an amount (the others' `amount` is informational only). */
const WITH_AMOUNT: ReadonlySet<GatewayEventKind> = new Set(['authorized', 'captured', 'succeeded', 'refunded']);

/**
 * How long a sandbox authorization holds the money (payment.authorized's authorization_expires_at): 7 days, as cards.
 */
export const AUTHORIZATION_SECONDS = 7 * 24 * 3600;

export function sandboxEvent(type: SandboxEventType, data: SandboxEvent['data']): SandboxEvent {
  return { id: `evt_${randomBytes(12).toString('hex')}`, type, created: Math.floor(Date.now() / 1000), data };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A verified body as normalised events. The signature already proved the sandbox wrote it, so a
 * body that is not a sandbox event is a bug or a leaked secret: refused like a bad signature.
 * A type the sandbox doesn't know is stored and ignored, as a real gateway's would be.
 */
export function normaliseSandboxEvent(rawBody: Buffer): GatewayEvent[] {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new WebhookSignatureError('the signed body is not JSON');
  }
  if (
    !isRecord(body)
    || typeof body.id !== 'string'
    || !/^[A-Za-z0-9_.:-]{1,128}$/.test(body.id)
    || typeof body.type !== 'string'
    || !isRecord(body.data)
  ) {
    throw new WebhookSignatureError('the signed body is not a sandbox event');
  }
  const { reference, amount, currency, authorization_expires_at: expiresAt } = body.data;
  if (
    typeof reference !== 'string'
    || reference === ''
    || typeof amount !== 'number'
    || !Number.isSafeInteger(amount)
    || amount < 0
    || typeof currency !== 'string'
    || !isSupportedCurrency(currency)
    || (expiresAt !== undefined && (typeof expiresAt !== 'number' || !Number.isSafeInteger(expiresAt) || expiresAt < 0))
  ) {
    throw new WebhookSignatureError(
      "the signed event's data is not a reference, an amount in minor units and a currency "
        + '(and an optional expiry in Unix seconds)',
    );
  }
  const kind: GatewayEventKind = Object.hasOwn(KINDS, body.type) ? KINDS[body.type as SandboxEventType] : 'ignored';
  const money = { amountMinor: amount, currency, exponent: currencyExponent(currency) };
  return [
    {
      eventId: body.id,
      kind,
      match: { reference },
      ...(WITH_AMOUNT.has(kind) ? { amount: money } : {}),
      ...(kind === 'authorized' && expiresAt !== undefined
        ? { authorizationExpiresAt: new Date(expiresAt * 1000) }
        : {}),
    },
  ];
}

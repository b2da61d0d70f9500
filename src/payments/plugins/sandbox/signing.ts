import { createHmac, timingSafeEqual } from 'node:crypto';
import { type CaptureMethod, WebhookSignatureError } from '../../payment-plugin.js';

/**
 * The sandbox's two signatures, both HMAC-SHA256 with a secret kept in DATA_DIR:
 * - a checkout link's parameters, so nobody can open (or submit) a page for another amount or
 *   another payment than the one the service started;
 * - its webhooks, in the shape real gateways use: `x-sandbox-signature: t=<unix>,v1=<hex>` over
 *   `"<t>.<raw body>"`, refused when stale, so a captured event can't be replayed days later.
 */

/** What a checkout page is for: exactly what start() was given, nothing the payer chooses. */
export interface CheckoutParams {
  reference: string;
  amountMinor: number;
  currency: string;
  exponent: number;
  orderAlias: string;
  returnUrl: string;
  cancelUrl: string;
  /** `manual`: the page authorizes (holds) the amount instead of paying it. Signed, so a payer can't switch. */
  captureMethod: CaptureMethod;
  /** Unix seconds after which the link is refused (an old attempt's page can't pay any more). */
  expiresAt: number;
}

/** How long a checkout link can be used. */
export const CHECKOUT_LINK_SECONDS = 3600;

/** The query (and form) field of each parameter, in the order they are signed. */
const FIELDS = [
  ['reference', 'reference'],
  ['amount', 'amountMinor'],
  ['currency', 'currency'],
  ['exponent', 'exponent'],
  ['order', 'orderAlias'],
  ['return_url', 'returnUrl'],
  ['cancel_url', 'cancelUrl'],
  ['capture', 'captureMethod'],
  ['expires', 'expiresAt'],
] as const satisfies readonly (readonly [string, keyof CheckoutParams])[];

export const SIGNATURE_FIELD = 'signature';

const hmacHex = (secret: string, ...parts: (string | Buffer)[]) => {
  const mac = createHmac('sha256', secret);
  for (const part of parts) mac.update(part);
  return mac.digest('hex');
};

/** Both sides are 64 lowercase hex digits (checked before), so the buffers have equal length. */
const sameHex = (a: string, b: string) => timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/**
 * The signed text: the fields as a URL-encoded query in a fixed order. Encoding keeps `&` and `=`
 * inside values from shifting one field into the next, so the text names one set of values only.
 */
function checkoutMessage(values: readonly string[]): string {
  return `sandbox-checkout-v2\n${asFields(values).toString()}`;
}

function asFields(values: readonly string[]): URLSearchParams {
  return new URLSearchParams(FIELDS.map(([field], i): [string, string] => [field, values[i] ?? '']));
}

/** The checkout parameters with their signature, as query or form fields. */
export function signCheckout(secret: string, params: CheckoutParams): URLSearchParams {
  const values = FIELDS.map(([, key]) => String(params[key]));
  const fields = asFields(values);
  fields.set(SIGNATURE_FIELD, hmacHex(secret, checkoutMessage(values)));
  return fields;
}

/** The field names and values a checkout form re-sends (everything signCheckout produced). */
export const checkoutFieldNames: readonly string[] = [...FIELDS.map(([field]) => field), SIGNATURE_FIELD];

/**
 * The checkout parameters from a query or a submitted form, or why they can't be trusted. The
 * signature is checked over the values exactly as received, before any of them is interpreted.
 */
export function verifyCheckout(
  secret: string,
  fields: URLSearchParams,
  nowMs = Date.now(),
): { ok: true; params: CheckoutParams } | { ok: false; reason: string } {
  const values: string[] = [];
  for (const field of checkoutFieldNames) {
    const given = fields.getAll(field);
    if (given.length !== 1)
      return {
        ok: false,
        reason: given.length === 0 ? `the link has no ${field}` : `the link has ${field} more than once`,
      };
    values.push(given[0] ?? '');
  }
  const signature = values.pop() ?? '';
  if (!HEX_SHA256.test(signature) || !sameHex(signature, hmacHex(secret, checkoutMessage(values)))) {
    return { ok: false, reason: "the link's signature does not match its contents" };
  }
  const [
    reference = '',
    amount = '',
    currency = '',
    exponent = '',
    orderAlias = '',
    returnUrl = '',
    cancelUrl = '',
    capture = '',
    expires = '',
  ] = values;
  if (!/^\d{1,12}$/.test(expires) || Number(expires) * 1000 <= nowMs)
    return { ok: false, reason: 'the link has expired; start the payment again from the store' };
  // Signed values came from start(); these checks only guard against a secret that leaked.
  if (
    !/^\d{1,16}$/.test(amount)
    || !Number.isSafeInteger(Number(amount))
    || !/^[0-9]$/.test(exponent)
    || !/^[A-Z]{3}$/.test(currency)
  ) {
    return { ok: false, reason: "the link's amount is not valid" };
  }
  if (![returnUrl, cancelUrl].every((url) => /^https?:\/\//.test(url)))
    return { ok: false, reason: "the link's return addresses are not valid" };
  if (capture !== 'automatic' && capture !== 'manual')
    return { ok: false, reason: "the link's capture method is not valid" };
  return {
    ok: true,
    params: {
      reference,
      amountMinor: Number(amount),
      currency,
      exponent: Number(exponent),
      orderAlias,
      returnUrl,
      cancelUrl,
      captureMethod: capture,
      expiresAt: Number(expires),
    },
  };
}

/** Webhooks older (or further in the future) than this are refused: a replay window of 5 minutes. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export const SIGNATURE_HEADER = 'x-sandbox-signature';

/**
 * The `x-sandbox-signature` header for a body: `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<raw body>">`. Exported so tests (and curious people) can sign their own events.
 */
export function signSandboxWebhook(
  secret: string,
  rawBody: Buffer | string,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  return `t=${timestamp},v1=${hmacHex(secret, `${timestamp}.`, rawBody)}`;
}

/**
 * Throws WebhookSignatureError unless the header is a valid, fresh signature of these exact bytes.
 * Every v1 given is tried (room for a rotated secret), each compared in constant time.
 */
export function verifySandboxWebhook(
  secret: string,
  { header, rawBody }: { header: string | string[] | undefined; rawBody: Buffer },
  nowMs = Date.now(),
): void {
  if (header === undefined || header === '')
    throw new WebhookSignatureError(`the ${SIGNATURE_HEADER} header is missing`);
  if (Array.isArray(header)) throw new WebhookSignatureError(`the ${SIGNATURE_HEADER} header is given more than once`);
  let timestamp: string | undefined;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) throw new WebhookSignatureError(`the ${SIGNATURE_HEADER} header is malformed`);
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined) throw new WebhookSignatureError(`the ${SIGNATURE_HEADER} header has two timestamps`);
      timestamp = value;
    } else if (key === 'v1') {
      candidates.push(value);
    }
  }
  if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp))
    throw new WebhookSignatureError(`the ${SIGNATURE_HEADER} header has no valid timestamp`);
  if (candidates.length === 0 || !candidates.every((c) => HEX_SHA256.test(c)))
    throw new WebhookSignatureError(`the ${SIGNATURE_HEADER} header has no valid v1 signature`);
  const age = Math.floor(nowMs / 1000) - Number(timestamp);
  if (Math.abs(age) > WEBHOOK_TOLERANCE_SECONDS) {
    throw new WebhookSignatureError(
      `the webhook's timestamp is ${age > 0 ? `${age} s old` : `${-age} s in the future`}; `
        + `at most ${WEBHOOK_TOLERANCE_SECONDS} s either way is accepted`,
    );
  }
  const expected = hmacHex(secret, `${timestamp}.`, rawBody);
  // Compare against every candidate (no early exit) so the time taken says nothing about which matched.
  const matched = candidates.map((c) => sameHex(c, expected)).includes(true);
  if (!matched) throw new WebhookSignatureError('the webhook signature does not match its body');
}

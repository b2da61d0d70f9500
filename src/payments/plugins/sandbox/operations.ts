import { createHash } from 'node:crypto';
import { currencyExponent, isSupportedCurrency } from '../../../shared/currency.js';
import {
  type CancelAttemptInput,
  type CaptureInput,
  GatewayError,
  type Money,
  PluginConfigError,
  type RefundInput,
  type VoidInput,
} from '../../payment-plugin.js';

/**
 * The sandbox's side of the service's operations (capture, void, refund, cancel an abandoned attempt). The sandbox
 * keeps no state and moves no money: each call checks its input and answers a gateway reference derived from the
 * idempotency key (so a retry gets the same one), or fails on purpose when SANDBOX_FAIL_OPERATIONS asks it to.
 */

export const SANDBOX_OPERATIONS = ['start', 'capture', 'void', 'refund', 'cancel_attempt'] as const;
export type SandboxOperation = (typeof SANDBOX_OPERATIONS)[number];

/** Operations that fail every time they are called, and whether the failure says "retry" (a gateway outage). */
export type SimulatedFailures = Partial<Record<SandboxOperation, { retryable: boolean }>>;

export const FAIL_OPERATIONS_VARIABLE = 'SANDBOX_FAIL_OPERATIONS';

/**
 * Reads SANDBOX_FAIL_OPERATIONS: a comma-separated list of operations, each optionally followed by `:retryable`,
 * e.g. `capture:retryable,void`. Unset or empty: nothing fails. Anything else stops the service at start.
 */
export function readSimulatedFailures(env: Record<string, string | undefined>): SimulatedFailures {
  const raw = env[FAIL_OPERATIONS_VARIABLE]?.trim() ?? '';
  const failures: SimulatedFailures = {};
  if (raw === '') return failures;
  for (const entry of raw.split(',')) {
    const [name = '', mode, ...extra] = entry.trim().split(':');
    const operation = SANDBOX_OPERATIONS.find((o) => o === name);
    if (operation === undefined || extra.length > 0 || (mode !== undefined && mode !== 'retryable')) {
      throw new PluginConfigError(
        `${FAIL_OPERATIONS_VARIABLE} must list operations among ${SANDBOX_OPERATIONS.join(', ')}, `
          + `each optionally followed by :retryable (got "${entry.trim()}")`,
      );
    }
    failures[operation] = { retryable: mode === 'retryable' };
  }
  return failures;
}

/** Throws the GatewayError SANDBOX_FAIL_OPERATIONS asks for this operation, if any. */
export function failIfAsked(failures: SimulatedFailures, operation: SandboxOperation): void {
  const failure = failures[operation];
  if (failure === undefined) return;
  throw new GatewayError(
    `the sandbox refused ${operation} on purpose (${FAIL_OPERATIONS_VARIABLE}`
      + `${failure.retryable ? ', retryable' : ''})`,
    failure.retryable,
  );
}

/** The gateway reference start() gives a sandbox attempt. */
export const sandboxGatewayRef = (reference: string): string => `sbx_${reference}`;

function refuse(message: string): never {
  throw new GatewayError(`sandbox: ${message}`);
}

/** Only an attempt the sandbox started: its reference and the gateway reference it answered. */
function checkAttempt(input: { reference: string; gatewayRef: string | null }): void {
  if (typeof input.reference !== 'string' || input.reference === '') refuse('the payment reference is missing');
  if (input.gatewayRef !== sandboxGatewayRef(input.reference))
    refuse(
      `${input.gatewayRef ?? 'a payment without gateway reference'} is not a sandbox payment of ${input.reference}`,
    );
}

function checkKey(idempotencyKey: string): void {
  if (typeof idempotencyKey !== 'string' || idempotencyKey === '') refuse('the idempotency key is missing');
}

function checkAmount(amount: Money): void {
  if (!Number.isSafeInteger(amount.amountMinor) || amount.amountMinor <= 0)
    refuse(`the amount must be a positive whole number of minor units (got ${amount.amountMinor})`);
  if (!isSupportedCurrency(amount.currency)) refuse(`unknown currency ${amount.currency}`);
  if (amount.exponent !== currencyExponent(amount.currency))
    refuse(`${amount.currency} has ${currencyExponent(amount.currency)} minor-unit digits, not ${amount.exponent}`);
}

/** Same reference and key, same answer: what a real gateway's idempotency gives a retry. */
function operationRef(prefix: string, input: { reference: string; idempotencyKey: string }): string {
  const digest = createHash('sha256').update(`${input.reference}\0${input.idempotencyKey}`).digest('hex');
  return `${prefix}_${digest.slice(0, 24)}`;
}

export function sandboxOperations(failures: SimulatedFailures) {
  return {
    async capture(input: CaptureInput): Promise<{ gatewayRef: string }> {
      checkAttempt(input);
      checkKey(input.idempotencyKey);
      checkAmount(input.amount);
      failIfAsked(failures, 'capture');
      return { gatewayRef: operationRef('sbx_cap', input) };
    },
    async void(input: VoidInput): Promise<void> {
      checkAttempt(input);
      checkKey(input.idempotencyKey);
      failIfAsked(failures, 'void');
    },
    async refund(input: RefundInput): Promise<{ gatewayRef: string }> {
      checkAttempt(input);
      checkKey(input.idempotencyKey);
      checkAmount(input.amount);
      failIfAsked(failures, 'refund');
      return { gatewayRef: operationRef('sbx_re', input) };
    },
    async cancelAttempt(input: CancelAttemptInput): Promise<void> {
      // An attempt that never reached the sandbox has nothing to close.
      if (input.gatewayRef === null) return;
      checkAttempt(input);
      failIfAsked(failures, 'cancel_attempt');
    },
  };
}

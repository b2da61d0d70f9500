import type { Problem } from '../../shared/problem';

/**
 * A new Idempotency-Key for one money operation (a capture, void, refund, or cancel-and-refund). `randomUUID` only
 * exists in secure contexts (https, localhost); a dashboard opened over plain http on a LAN address gets the same 122
 * random bits from `getRandomValues`.
 */
export function newOperationKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * What a failed money operation leaves behind, so the dialog knows whether a retry must be the very same request:
 * - `unsure`: the gateway did not answer (502 with `retryable: true`) or the answer was lost (network): the operation
 *   may be under way; only the same request with the same key may follow, and it moves the money once;
 * - `refused`: the gateway refused it (502 not retryable) or the operation is recorded as failed: nothing moved, and
 *   the service wants a new key for another try;
 * - `rejected`: the service refused it before any money moved (a 422 amount, a 409): the key was not used.
 */
export type FailureKind = 'unsure' | 'refused' | 'rejected';

export function failureKind(problem: Problem): FailureKind {
  if (problem.code === 'network_error') return 'unsure';
  if (problem.code === 'payment_gateway_error')
    return problemField(problem, 'retryable') === true ? 'unsure' : 'refused';
  if (problem.code === 'operation_failed') return 'refused';
  return 'rejected';
}

/** A member the API adds to a problem beyond RFC 9457's (`refundable`, `capturable`, `retryable`). */
export function problemField(problem: Problem, name: string): unknown {
  return (problem as Problem & Record<string, unknown>)[name];
}

import { compareAmounts } from '../../shared/money';
import type { Payment } from './types';

// The API's decimal strings compared as text (web/shared/money.ts): the dashboard never does arithmetic on money.

/** Whether a non-negative amount from the API is more than nothing ("0.00", "0" are not). */
export function isPositive(amount: string): boolean {
  return compareAmounts(amount, '0') > 0;
}

/** Whether what an admin typed reads as an amount (digits, a point and decimals); the API checks the rest. */
export function looksLikeAmount(text: string): boolean {
  return /^\d+(\.\d+)?$/.test(text);
}

/**
 * The payment to refund money owed back from, and how much of it: the first that can give back all of `due` alone,
 * else the one that can give back the most (all it can; the rest from another afterwards). Undefined when none can.
 */
export function refundSource(
  payments: readonly Payment[],
  due: string,
): { payment: Payment; amount: string } | undefined {
  const covering = payments.find((p) => compareAmounts(p.refundable, due) >= 0);
  if (covering) return { payment: covering, amount: due };
  const most = payments
    .filter((p) => isPositive(p.refundable))
    .sort((a, b) => compareAmounts(b.refundable, a.refundable))[0];
  return most && { payment: most, amount: most.refundable };
}

/** When the first of the open authorizations lapses (ISO 8601), if their gateways said. */
export function firstExpiry(payments: readonly Payment[]): string | undefined {
  return payments
    .filter((p) => isPositive(p.capturable) && p.authorization_expires_at !== null)
    .map((p) => p.authorization_expires_at as string)
    .sort()[0];
}

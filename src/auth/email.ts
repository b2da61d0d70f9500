import { invalidField } from '../shared/errors.js';

/** An email as stored and compared: trimmed and lower-cased (not checked). */
export const canonicalEmail = (raw: string): string => raw.trim().toLowerCase();

/** Trims and lower-cases an email, and rejects anything that is not plausibly one. */
export function normaliseEmail(raw: string, field = 'email'): string {
  const email = canonicalEmail(raw);
  if (email.length > 254 || !/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(email)) {
    throw invalidField(field, 'must be an email address');
  }
  return email;
}

import { invalidField } from '../shared/errors.js';

/** Trims and lower-cases an email, and rejects anything that is not plausibly one. */
export function normaliseEmail(raw: string, field = 'email'): string {
  const email = raw.trim().toLowerCase();
  if (email.length > 254 || !/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(email)) {
    throw invalidField(field, 'must be an email address');
  }
  return email;
}

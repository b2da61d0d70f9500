import { randomBytes } from 'node:crypto';

/**
 * A new signing secret as the Standard Webhooks specification writes it: `whsec_` and the base64 of the key, here
 * 32 random bytes (the specification asks for 24 to 64).
 */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

import { createHash, randomBytes } from 'node:crypto';
import { DomainError } from '../shared/errors.js';

/** 256 random bits, URL-safe: what a guest holds to address their cart. */
export function newCartToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only this digest is stored, so a database leak does not hand out live carts. */
export function hashCartToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The X-Cart-Token header's value, checked for shape; undefined when the header is absent. */
export function cartTokenFrom(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !TOKEN.test(header.trim())) {
    throw new DomainError('invalid_cart_token', { detail: 'X-Cart-Token must be the cart_token this service issued' });
  }
  return header.trim();
}

/** The X-Cart-Token of a checkout: a malformed one names no cart (it never stops an estimate or an order). */
export function checkoutCartToken(header: string | string[] | undefined): string | undefined {
  try {
    return cartTokenFrom(header);
  } catch {
    return undefined;
  }
}

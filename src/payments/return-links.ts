import type { TokenService } from '../auth/tokens.js';
import type { ReturnEnd } from './payment-states.js';

/**
 * Where a gateway sends the payer back: never straight to the storefront or to an order page, but to this service's
 * return route (src/checkout/payment-return.routes.ts), which then knows how the attempt went. The links are minted
 * here, when a payment starts, and read there.
 */

export const RETURN_PATH = '/payment/storefront/return/';

/** How long a gateway may keep the payer: Stripe Checkout's longest session is 24 hours. */
export const RETURN_LINK_SECONDS = 24 * 3600;

/** What a return link's token is for: it opens nothing else. */
export const RETURN_LINK_PURPOSE = 'payment-return';

/** The two links a gateway is given for one attempt: back after paying, and back after giving up. */
export async function returnLinks(
  deps: { tokens: TokenService; publicBaseUrl: string },
  reference: string,
): Promise<Record<'returnUrl' | 'cancelUrl', string>> {
  const link = async (end: ReturnEnd) => {
    const token = await deps.tokens.signLink({
      purpose: RETURN_LINK_PURPOSE,
      subject: reference,
      claims: { end },
      ttlSeconds: RETURN_LINK_SECONDS,
    });
    return `${deps.publicBaseUrl}${RETURN_PATH}?token=${token}`;
  };
  return { returnUrl: await link('return'), cancelUrl: await link('cancel') };
}

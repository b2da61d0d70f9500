import { createHash } from 'node:crypto';

/** How a guest's order token is kept (`orders.order_token_hash`): its SHA-256, in hex. */
export const hashOrderToken = (token: string) => createHash('sha256').update(token).digest('hex');

import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { marketPaymentPlugins, markets } from '../db/schema.js';
import { DomainError } from '../shared/errors.js';
import { offersPaymentPlugin } from './market-checkout.js';

/**
 * A payment of an order through a plugin its market does not offer is a 422 (decision 0031; an empty list offers every
 * enabled plugin). Orders placed before markets (no market) are the default market's, which offered everything then.
 */
export async function assertPluginOffered(
  db: Db,
  order: { alias: string; marketId: number | null },
  pluginId: string,
): Promise<void> {
  if (order.marketId === null) return;
  const rows = await db
    .select({ pluginId: marketPaymentPlugins.pluginId, code: markets.code })
    .from(markets)
    .leftJoin(marketPaymentPlugins, eq(marketPaymentPlugins.marketId, markets.id))
    .where(eq(markets.id, order.marketId));
  const offered = rows.flatMap((row) => (row.pluginId === null ? [] : [row.pluginId]));
  if (offersPaymentPlugin({ paymentPlugins: offered }, pluginId)) return;
  const code = rows[0]?.code ?? String(order.marketId);
  throw new DomainError('not_offered_in_market', {
    detail: `order ${order.alias} is in market "${code}", which does not offer payment by ${pluginId}`,
    errors: [{ field: 'payment_plugin_id', message: `is not offered in market "${code}"` }],
  });
}

import { type Money, UnchargeableAmountError } from './payment-plugin.js';
import type { EnabledPlugin } from './plugin-registry.js';

/**
 * The plugins a customer can pay `amount` through (issue #28): those `offers` lets through (the order's market) whose
 * gateway takes the amount exactly (`checkAmount`; Stripe takes KWD only in multiples of 10 fils). The estimate lists
 * them, so a shop never offers a payment the gateway would refuse with 422 amount_not_chargeable. In the registry's
 * order.
 */
export function chargeablePluginIds(
  plugins: readonly Pick<EnabledPlugin, 'id' | 'gateway'>[],
  input: { offers: (pluginId: string) => boolean; amount: Money },
): string[] {
  return plugins
    .filter((plugin) => {
      if (!input.offers(plugin.id)) return false;
      try {
        plugin.gateway.checkAmount?.(input.amount);
        return true;
      } catch (err) {
        if (err instanceof UnchargeableAmountError) return false;
        throw err;
      }
    })
    .map((plugin) => plugin.id);
}

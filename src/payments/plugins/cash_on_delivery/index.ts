import type { PaymentPlugin } from '../../payment-plugin.js';
import { WebhookSignatureError } from '../../payment-plugin.js';

/**
 * Cash on delivery: nothing to redirect to but the store's own order page, and nothing a gateway
 * will ever call back about. The payment stays pending until an admin records the cash
 * (POST /payment/dashboard/api/payments/{id}/capture/).
 */
const cashOnDelivery: PaymentPlugin<Record<string, never>> = {
  id: 'cash_on_delivery',
  name: 'Cash on delivery',
  manualCapture: true,
  configure: () => ({}),
  create: () => ({
    start: async (input) => ({ redirectUrl: input.returnUrl, gatewayRef: `cod_${input.reference}` }),
    parseWebhook: async () => {
      throw new WebhookSignatureError('cash on delivery has no gateway and accepts no webhooks');
    },
  }),
};

export default cashOnDelivery;

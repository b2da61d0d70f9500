import { describe, expect, it } from 'vitest';
import { chargeablePluginIds } from './chargeable-plugins.js';
import type { Money, PaymentGateway } from './payment-plugin.js';
import { toStripeAmount } from './plugins/stripe/stripe-amounts.js';

const kwd = (amountMinor: number): Money => ({ amountMinor, currency: 'KWD', exponent: 3 });
const plugin = (id: string, checkAmount?: (amount: Money) => void) => ({
  id,
  gateway: { checkAmount } as unknown as PaymentGateway,
});
// Stripe's own rule (stripe-amounts.ts); cash on delivery takes any amount.
const stripe = plugin('stripe', (amount) => void toStripeAmount(amount));
const cash = plugin('cash_on_delivery');
const everywhere = () => true;

describe('chargeablePluginIds', () => {
  it('leaves Stripe out of a KWD total ending in an odd fils (KD 16.914), and keeps it for KD 16.630', () => {
    expect(chargeablePluginIds([stripe, cash], { offers: everywhere, amount: kwd(16_914) })).toEqual([
      'cash_on_delivery',
    ]);
    expect(chargeablePluginIds([stripe, cash], { offers: everywhere, amount: kwd(16_630) })).toEqual([
      'stripe',
      'cash_on_delivery',
    ]);
  });

  it('lists only what the market offers', () => {
    expect(chargeablePluginIds([stripe, cash], { offers: (id) => id === 'stripe', amount: kwd(16_630) })).toEqual([
      'stripe',
    ]);
  });

  it('lets an error other than a refusal of the amount through: a bug is not an unchargeable amount', () => {
    const broken = plugin('broken', () => {
      throw new TypeError('bug');
    });
    expect(() => chargeablePluginIds([broken], { offers: everywhere, amount: kwd(1000) })).toThrow(TypeError);
  });
});

import type { PluginSituation } from '../../payment-plugin.js';
import { PluginConfigError } from '../../payment-plugin.js';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** How old a signed webhook may be, in seconds (Stripe's own default is 300). */
  toleranceSeconds: number;
  /** Another server speaking Stripe's API (a local stand-in in tests); undefined: api.stripe.com. */
  api: { host?: string; port?: number; protocol?: 'http' | 'https' };
}

type Env = Record<string, string | undefined>;

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function wholeNumber(env: Env, name: string, bounds: { min: number; max: number }): number | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= bounds.min && value <= bounds.max))
    throw new PluginConfigError(`${name} must be a whole number from ${bounds.min} to ${bounds.max} (got "${raw}")`);
  return value;
}

/**
 * Reads the Stripe settings. Neither key set (and the plugin not named in PAYMENT_PLUGINS):
 * not configured. Otherwise both keys are required and checked for their Stripe prefixes, so a
 * publishable key or two swapped variables stop the service at start instead of failing payments.
 */
export function readStripeSettings(env: Env, situation: PluginSituation): StripeSettings | undefined {
  const secretKey = read(env, 'STRIPE_SECRET_KEY');
  const webhookSecret = read(env, 'STRIPE_WEBHOOK_SECRET');
  if (secretKey === undefined && webhookSecret === undefined && !situation.explicit) return undefined;

  if (secretKey === undefined)
    throw new PluginConfigError(
      'STRIPE_SECRET_KEY is required (the secret API key from the Stripe dashboard, sk_live_… or sk_test_…)',
    );
  // Restricted keys (rk_) are Stripe's least-privilege secret keys: accepted as well.
  if (!/^(sk|rk)_[A-Za-z0-9_]+$/.test(secretKey))
    throw new PluginConfigError(
      'STRIPE_SECRET_KEY must be a secret key starting with sk_ (or a restricted key, rk_); '
        + 'publishable keys (pk_) cannot create payments',
    );
  if (webhookSecret === undefined)
    throw new PluginConfigError(
      'STRIPE_WEBHOOK_SECRET is required (the signing secret of the webhook endpoint, whsec_…)',
    );
  if (!/^whsec_[A-Za-z0-9+/=_-]+$/.test(webhookSecret))
    throw new PluginConfigError('STRIPE_WEBHOOK_SECRET must be a webhook signing secret starting with whsec_');

  // 0 would switch Stripe's timestamp check off (replays of old signed events): not allowed.
  const toleranceSeconds = wholeNumber(env, 'STRIPE_WEBHOOK_TOLERANCE_SECONDS', { min: 1, max: 86_400 }) ?? 300;

  const host = read(env, 'STRIPE_API_HOST');
  if (host !== undefined && !/^[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/.test(host)) {
    throw new PluginConfigError(
      `STRIPE_API_HOST must be a host name or address without scheme, port or path (got "${host}")`,
    );
  }
  const port = wholeNumber(env, 'STRIPE_API_PORT', { min: 1, max: 65_535 });
  const protocol = read(env, 'STRIPE_API_PROTOCOL');
  if (protocol !== undefined && protocol !== 'http' && protocol !== 'https') {
    throw new PluginConfigError(`STRIPE_API_PROTOCOL must be http or https (got "${protocol}")`);
  }
  if (protocol === 'http' && /^(sk|rk)_live_/.test(secretKey)) {
    throw new PluginConfigError('STRIPE_API_PROTOCOL=http would send a live STRIPE_SECRET_KEY unencrypted; use https');
  }

  return {
    secretKey,
    webhookSecret,
    toleranceSeconds,
    api: { ...(host ? { host } : {}), ...(port ? { port } : {}), ...(protocol ? { protocol } : {}) },
  };
}

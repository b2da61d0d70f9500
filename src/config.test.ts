import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

function failure(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      storeCurrency: 'USD',
      roundingMode: 'half_up',
      pricesIncludeTax: false,
      shippingTaxable: false,
      jwtSecret: undefined,
      publicBaseUrl: 'http://127.0.0.1:8000',
      paymentPlugins: undefined,
      admin: undefined,
      seedDemo: true,
      maxLineQuantity: 999,
      maxCartLines: 200,
    });
    expect(config.dataDir).toMatch(/data$/);
  });

  it('keeps images under DATA_DIR by default, and in S3 with MEDIA_STORAGE=s3 and its settings', () => {
    expect(loadConfig({}).media).toEqual({
      storage: { kind: 'file' },
      maxUploadBytes: 20 * 1024 * 1024,
      maxPixels: 50_000_000,
      memoryCacheBytes: 64 * 1024 * 1024,
    });
    const s3 = loadConfig({
      MEDIA_STORAGE: 's3',
      MEDIA_S3_BUCKET: 'shop-images',
      MEDIA_S3_ENDPOINT: 'http://127.0.0.1:9000',
      MEDIA_S3_ACCESS_KEY_ID: 'key',
      MEDIA_S3_SECRET_ACCESS_KEY: 'secret',
      MEDIA_S3_PREFIX: 'shop-1/',
      MEDIA_MAX_PIXELS: '1000000',
    }).media;
    expect(s3).toMatchObject({
      storage: {
        kind: 's3',
        bucket: 'shop-images',
        region: 'us-east-1',
        endpoint: 'http://127.0.0.1:9000',
        credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
        forcePathStyle: true,
        prefix: 'shop-1/',
      },
      maxPixels: 1_000_000,
    });
    expect(() => loadConfig({ MEDIA_STORAGE: 's3' })).toThrow(/MEDIA_S3_BUCKET/);
    expect(() => loadConfig({ MEDIA_STORAGE: 's3', MEDIA_S3_BUCKET: 'b', MEDIA_S3_ACCESS_KEY_ID: 'k' })).toThrow(
      /MEDIA_S3_SECRET_ACCESS_KEY/,
    );
    expect(() => loadConfig({ MEDIA_STORAGE: 's3', MEDIA_S3_BUCKET: 'b', MEDIA_S3_PREFIX: '../x' })).toThrow(
      /MEDIA_S3_PREFIX/,
    );
    expect(() => loadConfig({ MEDIA_STORAGE: 's3', MEDIA_S3_BUCKET: 'b', MEDIA_S3_PREFIX: 'a/../' })).toThrow(
      /MEDIA_S3_PREFIX/,
    );
    expect(() => loadConfig({ MEDIA_STORAGE: 'ftp' })).toThrow(/MEDIA_STORAGE/);
  });

  it('turns the demo seed off by default on PostgreSQL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).seedDemo).toBe(false);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      STORE_CURRENCY: 'jpy',
      ROUNDING_MODE: 'half_even',
      PRICES_INCLUDE_TAX: 'true',
      SHIPPING_TAXABLE: '1',
      JWT_SECRET: 'x'.repeat(32),
      PUBLIC_BASE_URL: 'https://shop.example/',
      PAYMENT_PLUGINS: 'stripe, sandbox',
      ADMIN_EMAIL: 'Admin@Example.com',
      ADMIN_PASSWORD: 'long enough',
      SEED_DEMO: 'false',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      storeCurrency: 'JPY',
      roundingMode: 'half_even',
      pricesIncludeTax: true,
      shippingTaxable: true,
      publicBaseUrl: 'https://shop.example',
      paymentPlugins: ['stripe', 'sandbox'],
      admin: { email: 'admin@example.com', password: 'long enough' },
      seedDemo: false,
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ STORE_CURRENCY: 'XYZ' }, 'STORE_CURRENCY'],
    [{ STORE_CURRENCY: 'US' }, 'STORE_CURRENCY'],
    [{ ROUNDING_MODE: 'bankers' }, 'ROUNDING_MODE'],
    [{ PRICES_INCLUDE_TAX: 'maybe' }, 'PRICES_INCLUDE_TAX'],
    [{ DATABASE_URL: 'mysql://x/y' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'http://127.0.0.1:6379' }, 'REDIS_URL'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ ADMIN_EMAIL: 'a@b.co' }, 'ADMIN_PASSWORD'],
    [{ ADMIN_PASSWORD: 'longenough' }, 'ADMIN_EMAIL'],
    [{ ADMIN_EMAIL: 'not-an-email', ADMIN_PASSWORD: 'longenough' }, 'ADMIN_EMAIL'],
    [{ ADMIN_EMAIL: 'a@b.co', ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD'],
    [{ PUBLIC_BASE_URL: 'ftp://x' }, 'PUBLIC_BASE_URL'],
    [{ MAX_LINE_QUANTITY: '0' }, 'MAX_LINE_QUANTITY'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
  ])('refuses %o naming %s', (env, variable) => {
    const err = failure(env);
    expect(err.variable).toBe(variable);
    expect(err.message.startsWith(`${variable}: `)).toBe(true);
  });

  it('reads the placement limits and the metrics token, with their defaults', () => {
    expect(loadConfig({})).toMatchObject({
      placementTimeoutMs: 10_000,
      placementQueueLimit: 1000,
      metricsToken: undefined,
    });
    const env = { PLACEMENT_TIMEOUT_MS: '2500', PLACEMENT_QUEUE_LIMIT: '50', METRICS_TOKEN: 'scrape-token-0123' };
    expect(loadConfig(env)).toMatchObject({
      placementTimeoutMs: 2500,
      placementQueueLimit: 50,
      metricsToken: 'scrape-token-0123',
    });
  });

  it.each([
    [{ PLACEMENT_TIMEOUT_MS: '0' }, 'PLACEMENT_TIMEOUT_MS'],
    [{ PLACEMENT_QUEUE_LIMIT: '-1' }, 'PLACEMENT_QUEUE_LIMIT'],
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN'],
    [{ METRICS_TOKEN: 'long enough but has spaces' }, 'METRICS_TOKEN'],
  ])('refuses %o naming %s (placement limits, metrics token)', (env, variable) => {
    expect(failure(env).variable).toBe(variable);
  });

  it('keeps outbound webhooks off private addresses unless NODE_ENV is development or test', () => {
    expect(loadConfig({}).webhooks).toEqual({
      allowPrivate: false,
      timeoutMs: 10_000,
      retryBaseMs: 5_000,
      retryMaxDelayMs: 3_600_000,
    });
    expect(loadConfig({ NODE_ENV: 'production' }).webhooks.allowPrivate).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development' }).webhooks.allowPrivate).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).webhooks.allowPrivate).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE: 'true' }).webhooks.allowPrivate).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test', WEBHOOK_ALLOW_PRIVATE: 'false' }).webhooks.allowPrivate).toBe(false);
    const env = { WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_RETRY_BASE_MS: '100', WEBHOOK_RETRY_MAX_DELAY_MS: '1000' };
    expect(loadConfig(env).webhooks).toMatchObject({ timeoutMs: 2000, retryBaseMs: 100, retryMaxDelayMs: 1000 });
  });

  it.each([
    [{ WEBHOOK_ALLOW_PRIVATE: 'sometimes' }, 'WEBHOOK_ALLOW_PRIVATE'],
    [{ WEBHOOK_TIMEOUT_MS: '0' }, 'WEBHOOK_TIMEOUT_MS'],
    [{ WEBHOOK_RETRY_BASE_MS: '1.5' }, 'WEBHOOK_RETRY_BASE_MS'],
    [{ WEBHOOK_RETRY_BASE_MS: '60000', WEBHOOK_RETRY_MAX_DELAY_MS: '1000' }, 'WEBHOOK_RETRY_MAX_DELAY_MS'],
  ])('refuses %o naming %s (webhooks)', (env, variable) => {
    expect(failure(env).variable).toBe(variable);
  });
});

describe('loadConfig: customer emails', () => {
  it('sends nothing by default, as "Storefront", with order links that work 7 days', () => {
    expect(loadConfig({})).toMatchObject({
      storeName: 'Storefront',
      smtpUrl: undefined,
      mailFrom: { name: 'Storefront', address: 'no-reply@localhost' },
      orderEmailLinkDays: 7,
    });
  });

  it('reads SMTP_URL, MAIL_FROM, STORE_NAME and ORDER_EMAIL_LINK_DAYS', () => {
    const config = loadConfig({
      SMTP_URL: 'smtps://shop:p%40ss@mail.example:465',
      MAIL_FROM: '"Lamp Shop" <orders@lamps.example>',
      STORE_NAME: 'Lamps & Co',
      ORDER_EMAIL_LINK_DAYS: '14',
    });
    expect(config).toMatchObject({
      smtpUrl: 'smtps://shop:p%40ss@mail.example:465',
      mailFrom: { name: 'Lamp Shop', address: 'orders@lamps.example' },
      storeName: 'Lamps & Co',
      orderEmailLinkDays: 14,
    });
  });

  it('reads RETURN_INSTRUCTIONS as given, none when unset or blank', () => {
    const given = 'Send it to Lamps Returns, 1 Dock Rd, Oakland, CA 94607, with your order number inside.';
    expect(loadConfig({ RETURN_INSTRUCTIONS: `  ${given} ` }).returnInstructions).toBe(given);
    expect(loadConfig({}).returnInstructions).toBeNull();
    expect(loadConfig({ RETURN_INSTRUCTIONS: '   ' }).returnInstructions).toBeNull();
  });

  it('sends from no-reply at the public host, named after the store, unless MAIL_FROM says otherwise', () => {
    const env = { PUBLIC_BASE_URL: 'https://shop.example', STORE_NAME: 'Lamps' };
    expect(loadConfig(env).mailFrom).toEqual({ name: 'Lamps', address: 'no-reply@shop.example' });
    expect(loadConfig({ ...env, MAIL_FROM: 'orders@shop.example' }).mailFrom).toEqual({
      name: 'Lamps',
      address: 'orders@shop.example',
    });
    expect(loadConfig({ PUBLIC_BASE_URL: 'http://10.0.0.5:8000' }).mailFrom.address).toBe('no-reply@localhost');
  });

  it.each([
    [{ SMTP_URL: 'http://mail.example' }, 'SMTP_URL'],
    [{ SMTP_URL: 'smtp://' }, 'SMTP_URL'],
    [{ SMTP_URL: 'not a url' }, 'SMTP_URL'],
    [{ MAIL_FROM: 'not an address' }, 'MAIL_FROM'],
    [{ MAIL_FROM: 'a@shop.example, b@shop.example' }, 'MAIL_FROM'],
    [{ STORE_NAME: 'Lamps\r\nBcc: x@evil.example' }, 'STORE_NAME'],
    [{ STORE_NAME: 'x'.repeat(101) }, 'STORE_NAME'],
    [{ RETURN_INSTRUCTIONS: 'Send it to us\nBcc: x@evil.example' }, 'RETURN_INSTRUCTIONS'],
    [{ RETURN_INSTRUCTIONS: 'x'.repeat(1001) }, 'RETURN_INSTRUCTIONS'],
    [{ ORDER_EMAIL_LINK_DAYS: '0' }, 'ORDER_EMAIL_LINK_DAYS'],
    [{ ORDER_EMAIL_LINK_DAYS: '91' }, 'ORDER_EMAIL_LINK_DAYS'],
  ])('refuses %o naming %s', (env, variable) => {
    expect(failure(env).variable).toBe(variable);
  });

  it('never repeats the SMTP password in its error', () => {
    expect(failure({ SMTP_URL: 'imap://shop:hunter2-secret@mail.example' }).message).not.toContain('hunter2');
  });

  it('captures on shipment by default; knows common carriers, CARRIER_TRACKING_URLS adds or replaces', () => {
    const defaults = loadConfig({});
    expect(defaults.captureOnShipment).toBe(true);
    expect(Object.keys(defaults.carrierTrackingUrls).sort()).toEqual(['dhl', 'fedex', 'ups', 'usps']);
    const config = loadConfig({
      CAPTURE_ON_SHIPMENT: 'false',
      CARRIER_TRACKING_URLS:
        '{"Colissimo":"https://laposte.example/?code={tracking_number}","ups":"http://u.example/{tracking_number}"}',
    });
    expect(config.captureOnShipment).toBe(false);
    expect(config.carrierTrackingUrls).toMatchObject({
      colissimo: 'https://laposte.example/?code={tracking_number}',
      ups: 'http://u.example/{tracking_number}',
      dhl: expect.stringContaining('{tracking_number}'),
    });
  });

  it.each([
    'not json',
    '["https://a.example/{tracking_number}"]',
    '{"ups":"https://a.example/track"}',
    '{"ups":"javascript:alert(1)//{tracking_number}"}',
    '{"ups":42}',
  ])('refuses CARRIER_TRACKING_URLS=%s', (value) => {
    expect(failure({ CARRIER_TRACKING_URLS: value }).variable).toBe('CARRIER_TRACKING_URLS');
  });
});

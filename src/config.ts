import path from 'node:path';
import addressparser from 'nodemailer/lib/addressparser';
import { isSupportedCurrency } from './shared/currency.js';
import { ROUNDING_MODES, type RoundingMode } from './shared/money.js';

/** The store's configuration, read once from the environment at start (SPEC section 2). */
export interface Config {
  port: number;
  host: string;
  /** PostgreSQL connection string; undefined means the embedded database in `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  storeCurrency: string;
  roundingMode: RoundingMode;
  pricesIncludeTax: boolean;
  shippingTaxable: boolean;
  /** Signing key for tokens; undefined means generated once and kept in `dataDir`. */
  jwtSecret: string | undefined;
  publicBaseUrl: string;
  /** Enabled payment plugin ids or package names; undefined means every installed plugin. */
  paymentPlugins: string[] | undefined;
  /**
   * `automatic`: money is taken when the payer pays; `manual`: only authorized, an admin captures it (PAYMENT_CAPTURE).
   */
  paymentCapture: 'automatic' | 'manual';
  admin: { email: string; password: string } | undefined;
  seedDemo: boolean;
  logLevel: string;
  /** Requests per minute and client address on each of signup, login and token refresh. */
  authRateLimitPerMinute: number;
  /** Estimate and placement requests that carry a promo code, per minute and client address (against code guessing). */
  promoRateLimitPerMinute: number;
  /** Requests per minute and client address on the payment webhook route. */
  webhookRateLimitPerMinute: number;
  /** Redis for the rate-limit counters of every process; undefined: the database (PostgreSQL) or memory (embedded). */
  redisUrl: string | undefined;
  /** Prefix of the rate-limit keys in Redis, so stores sharing one Redis keep apart. */
  redisKeyPrefix: string;
  maxLineQuantity: number;
  maxCartLines: number;
  /** Trust X-Forwarded-For (set when running behind a reverse proxy). */
  trustProxy: boolean;
  /**
   * Longest time reference data (variants, tax, shipping, promo codes, the storefront's catalog pages) is kept in
   * memory without a change being announced; 0 turns the caches off.
   */
  referenceCacheTtlSeconds: number;
  /** Longest a placement waits for the database (queue, connection, row locks) before a 503. */
  placementTimeoutMs: number;
  /** Placements of this process waiting for a batch, at most; more get a 503 at once. */
  placementQueueLimit: number;
  /** Longest a cart write (add, update, remove, merge) waits for the database before a 503. */
  cartWriteTimeoutMs: number;
  /** Cart writes of this process waiting for a batch, at most; more get a 503 at once. */
  cartWriteQueueLimit: number;
  /** Bearer token that may read GET /metrics besides admins; undefined: admins only. */
  metricsToken: string | undefined;
  /** Whether this process runs background jobs (false: a web-only process; others on the database run them). */
  jobsEnabled: boolean;
  /** How often the job worker looks for due jobs when nothing woke it. */
  jobsPollMs: number;
  /** Jobs a process runs at once, at most. */
  jobsConcurrency: number;
  /** The store's name in customer emails. */
  storeName: string;
  /**
   * RETURN_INSTRUCTIONS: how a customer sends a return back (where to, what to put in the parcel), shown with a
   * requested return on the order page and in its email; null: the store gives none.
   */
  returnInstructions: string | null;
  /**
   * `smtp://user:pass@host:port` (or `smtps://`) customer emails go through; undefined: they are logged as not sent.
   */
  smtpUrl: string | undefined;
  /** Sender of customer emails; the name is the store's unless MAIL_FROM gives one. */
  mailFrom: { name: string; address: string };
  /** How long the link to an order's page in an email opens it (the one after paying lasts 15 minutes). */
  orderEmailLinkDays: number;
  /** Outbound webhooks (docs/webhooks.md). */
  webhooks: WebhookSettings;
  /** A pending order with nothing paid is cancelled as expired this many minutes after placement (0: never). */
  unpaidOrderTtlMinutes: number;
  /** MARKET_RATES_URL: a JSON rate document (file path or http(s) URL) the market-rates job reads; unset: no job. */
  marketRatesUrl: string | undefined;
  marketRatesIntervalMinutes: number;
  /** Whether an order becoming paid moves from pending to approved. */
  autoApprovePaidOrders: boolean;
  /**
   * Each carrier's tracking page, `{tracking_number}` standing for the shipment's number (CARRIER_TRACKING_URLS, over
   * the defaults `DEFAULT_CARRIER_TRACKING_URLS`); keys lower-case.
   */
  carrierTrackingUrls: Readonly<Record<string, string>>;
  /**
   * With PAYMENT_CAPTURE=manual: shipping a fulfillment captures the money of what it shipped (CAPTURE_ON_SHIPMENT,
   * decision 0027).
   */
  captureOnShipment: boolean;
  /** Product images: where they are kept, and what an upload may be (docs/catalog.md#media). */
  media: MediaSettings;
}

export interface MediaSettings {
  /** `file`: under DATA_DIR/media; `s3`: in an S3-compatible bucket (MEDIA_STORAGE). */
  storage: { kind: 'file' } | ({ kind: 's3' } & S3MediaSettings);
  /** Largest upload in bytes (MEDIA_MAX_UPLOAD_BYTES). */
  maxUploadBytes: number;
  /** Most pixels (width × height) an upload may have (MEDIA_MAX_PIXELS): decompression bombs are refused. */
  maxPixels: number;
  /** Bytes of served sizes each process keeps in memory (MEDIA_MEMORY_CACHE_BYTES; 0: none). */
  memoryCacheBytes: number;
}

export interface S3MediaSettings {
  bucket: string;
  region: string;
  endpoint: string | undefined;
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
  prefix: string;
}

/** MEDIA_STORAGE and, for `s3`, MEDIA_S3_*. */
function mediaSettings(env: Env): MediaSettings {
  const kind = oneOf(env, 'MEDIA_STORAGE', { allowed: ['file', 's3'] as const, fallback: 'file' });
  const limits = {
    maxUploadBytes: integer(env, 'MEDIA_MAX_UPLOAD_BYTES', {
      fallback: 20 * 1024 * 1024,
      min: 1024,
      max: 200 * 1024 ** 2,
    }),
    maxPixels: integer(env, 'MEDIA_MAX_PIXELS', { fallback: 50_000_000, min: 10_000, max: 268_402_689 }),
    memoryCacheBytes: integer(env, 'MEDIA_MEMORY_CACHE_BYTES', { fallback: 64 * 1024 * 1024, min: 0, max: 2 ** 34 }),
  };
  if (kind === 'file') return { storage: { kind }, ...limits };
  const bucket = read(env, 'MEDIA_S3_BUCKET');
  if (bucket === undefined) throw new ConfigError('MEDIA_S3_BUCKET', 'is required when MEDIA_STORAGE is s3');
  const endpoint = url(env, 'MEDIA_S3_ENDPOINT', ['http:', 'https:']);
  const accessKeyId = read(env, 'MEDIA_S3_ACCESS_KEY_ID');
  const secretAccessKey = read(env, 'MEDIA_S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new ConfigError(
      accessKeyId === undefined ? 'MEDIA_S3_ACCESS_KEY_ID' : 'MEDIA_S3_SECRET_ACCESS_KEY',
      'MEDIA_S3_ACCESS_KEY_ID and MEDIA_S3_SECRET_ACCESS_KEY must be set together',
    );
  }
  const prefix = read(env, 'MEDIA_S3_PREFIX') ?? '';
  if (!/^([A-Za-z0-9._-]+\/)*$/.test(prefix) || prefix.split('/').some((part) => /^\.+$/.test(part))) {
    throw new ConfigError('MEDIA_S3_PREFIX', 'must be empty or folder names ending with /, like "shop-1/"');
  }
  return {
    storage: {
      kind,
      bucket,
      region: read(env, 'MEDIA_S3_REGION') ?? 'us-east-1',
      endpoint,
      credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
      forcePathStyle: boolean(env, 'MEDIA_S3_FORCE_PATH_STYLE', endpoint !== undefined),
      prefix,
    },
    ...limits,
  };
}

/** Tracking pages of common carriers; CARRIER_TRACKING_URLS adds to them or replaces them, carrier by carrier. */
export const DEFAULT_CARRIER_TRACKING_URLS: Readonly<Record<string, string>> = {
  ups: 'https://www.ups.com/track?tracknum={tracking_number}',
  usps: 'https://tools.usps.com/go/TrackConfirmAction?tLabels={tracking_number}',
  fedex: 'https://www.fedex.com/fedextrack/?trknbr={tracking_number}',
  dhl: 'https://www.dhl.com/global-en/home/tracking.html?tracking-id={tracking_number}',
};

/** CARRIER_TRACKING_URLS: a JSON object of carrier → http(s) URL template holding `{tracking_number}`. */
function carrierTrackingUrls(env: Env): Record<string, string> {
  const name = 'CARRIER_TRACKING_URLS';
  const raw = read(env, name);
  const out: Record<string, string> = { ...DEFAULT_CARRIER_TRACKING_URLS };
  if (raw === undefined) return out;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(name, 'is not JSON (an object of carrier to URL template)');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new ConfigError(name, 'must be a JSON object of carrier to URL template');
  for (const [carrier, template] of Object.entries(parsed)) {
    const valid =
      typeof template === 'string'
      && template.includes('{tracking_number}')
      && /^https?:\/\/[^\s]+$/.test(template)
      && URL.canParse(template.replaceAll('{tracking_number}', 'x'));
    if (!valid)
      throw new ConfigError(name, `the template of "${carrier}" must be an http(s) URL holding {tracking_number}`);
    out[carrier.trim().toLowerCase()] = template;
  }
  return out;
}

export interface WebhookSettings {
  /**
   * Whether endpoints may be on loopback, private, link-local and other non-public addresses. Default: only when
   * NODE_ENV is `development` or `test`, so a production process is closed unless told otherwise.
   */
  allowPrivate: boolean;
  /** Longest wait for an endpoint's answer (connect, request and status line), per attempt. */
  timeoutMs: number;
  /** Delay before the first retry; each later one doubles it (with jitter), up to `retryMaxDelayMs`. */
  retryBaseMs: number;
  retryMaxDelayMs: number;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(
  env: Env,
  name: string,
  { fallback, min, max }: { fallback: number; min: number; max: number },
): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `"${raw}" is not a whole number`);
  const value = Number(raw);
  if (value < min || value > max) {
    throw new ConfigError(name, `${raw} is outside ${min}..${max}`);
  }
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const lower = raw.toLowerCase();
  if (['true', '1', 'yes'].includes(lower)) return true;
  if (['false', '0', 'no'].includes(lower)) return false;
  throw new ConfigError(name, `"${raw}" is not a boolean (use true or false)`);
}

function oneOf<T extends string>(
  env: Env,
  name: string,
  { allowed, fallback }: { allowed: readonly T[]; fallback: T },
): T {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `"${raw}" is not one of ${allowed.join(', ')}`);
  }
  return raw as T;
}

function url(env: Env, name: string, protocols: readonly string[]): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, 'is not a valid URL');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')} (got ${parsed.protocol})`);
  }
  return raw;
}

/** Text for a header or a one-line template value: no control characters, at most `max` characters. */
function line(env: Env, name: string, { fallback, max }: { fallback: string; max: number }): string {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (/\p{Cc}/u.test(raw)) throw new ConfigError(name, 'must be one line without control characters');
  if (raw.length > max) throw new ConfigError(name, `is longer than ${max} characters`);
  return raw;
}

/** SMTP_URL carries a password: no message here repeats it. */
function smtpUrl(env: Env): string | undefined {
  const raw = url(env, 'SMTP_URL', ['smtp:', 'smtps:']);
  if (raw !== undefined && new URL(raw).hostname === '') throw new ConfigError('SMTP_URL', 'has no host');
  return raw;
}

const MAILBOX = /^[^\s@<>",;]+@[^\s@<>",;]+$/;

/**
 * MAIL_FROM as `shop@example.com` or `"My Shop" <shop@example.com>`. Unset: no-reply at the public
 * URL's host when it is a domain name, otherwise at localhost (fine for a local catcher; a real
 * relay wants an address of a domain it sends for).
 */
function mailFrom(env: Env, input: { storeName: string; publicBaseUrl: string }): Config['mailFrom'] {
  const raw = line(env, 'MAIL_FROM', { fallback: '', max: 320 });
  if (raw === '') {
    const host = new URL(input.publicBaseUrl).hostname;
    const domainName = /^(?=.*[a-z])[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(host);
    return { name: input.storeName, address: `no-reply@${domainName ? host : 'localhost'}` };
  }
  const parsed = addressparser(raw);
  const [first] = parsed;
  if (parsed.length !== 1 || first?.address === undefined || !MAILBOX.test(first.address)) {
    throw new ConfigError(
      'MAIL_FROM',
      `"${raw}" is not one email address (like shop@example.com or "Shop" <shop@example.com>)`,
    );
  }
  return { name: first.name || input.storeName, address: first.address };
}

/** Reads and validates the configuration; throws a ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', { fallback: 8000, min: 0, max: 65535 });
  const host = read(env, 'HOST') ?? '127.0.0.1';
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);

  const storeCurrency = (read(env, 'STORE_CURRENCY') ?? 'USD').toUpperCase();
  if (!isSupportedCurrency(storeCurrency)) {
    throw new ConfigError(
      'STORE_CURRENCY',
      `"${storeCurrency}" is not an ISO 4217 currency code known to this runtime`,
    );
  }

  const jwtSecret = read(env, 'JWT_SECRET');
  if (jwtSecret !== undefined && Buffer.byteLength(jwtSecret) < 32) {
    throw new ConfigError('JWT_SECRET', 'must be at least 32 bytes long');
  }

  const adminEmail = read(env, 'ADMIN_EMAIL');
  const adminPassword = read(env, 'ADMIN_PASSWORD');
  if ((adminEmail === undefined) !== (adminPassword === undefined)) {
    throw new ConfigError(
      adminEmail === undefined ? 'ADMIN_EMAIL' : 'ADMIN_PASSWORD',
      'ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
    );
  }
  if (adminPassword !== undefined && adminPassword.length < 8) {
    throw new ConfigError('ADMIN_PASSWORD', 'must be at least 8 characters long');
  }
  if (adminEmail !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(adminEmail)) {
    throw new ConfigError('ADMIN_EMAIL', `"${adminEmail}" is not an email address`);
  }

  const plugins = read(env, 'PAYMENT_PLUGINS');
  const paymentPlugins =
    plugins === undefined
      ? undefined
      : plugins
          .split(',')
          .map((p) => p.trim())
          .filter((p) => p !== '');

  const publicBaseUrl =
    url(env, 'PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  const metricsToken = read(env, 'METRICS_TOKEN');
  // Sent as a Bearer token: the characters the Authorization header accepts (src/http/auth.ts).
  if (metricsToken !== undefined && !/^[A-Za-z0-9._~+/=-]{16,}$/.test(metricsToken)) {
    throw new ConfigError('METRICS_TOKEN', 'must be at least 16 characters of A-Z a-z 0-9 . _ ~ + / = -');
  }

  const nodeEnv = read(env, 'NODE_ENV');
  const webhooks: WebhookSettings = {
    allowPrivate: boolean(env, 'WEBHOOK_ALLOW_PRIVATE', nodeEnv === 'development' || nodeEnv === 'test'),
    timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', { fallback: 10_000, min: 1, max: 600_000 }),
    retryBaseMs: integer(env, 'WEBHOOK_RETRY_BASE_MS', { fallback: 5_000, min: 1, max: 86_400_000 }),
    retryMaxDelayMs: integer(env, 'WEBHOOK_RETRY_MAX_DELAY_MS', { fallback: 3_600_000, min: 1, max: 86_400_000 }),
  };
  if (webhooks.retryMaxDelayMs < webhooks.retryBaseMs) {
    throw new ConfigError('WEBHOOK_RETRY_MAX_DELAY_MS', 'must not be less than WEBHOOK_RETRY_BASE_MS');
  }
  const storeName = line(env, 'STORE_NAME', { fallback: 'Storefront', max: 100 });
  const returnInstructions = line(env, 'RETURN_INSTRUCTIONS', { fallback: '', max: 1000 }) || null;

  const logLevel = oneOf(env, 'LOG_LEVEL', {
    allowed: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
    fallback: 'info',
  });

  return {
    port,
    host,
    databaseUrl,
    dataDir: path.resolve(read(env, 'DATA_DIR') ?? './data'),
    storeCurrency,
    roundingMode: oneOf(env, 'ROUNDING_MODE', { allowed: ROUNDING_MODES, fallback: 'half_up' }),
    pricesIncludeTax: boolean(env, 'PRICES_INCLUDE_TAX', false),
    shippingTaxable: boolean(env, 'SHIPPING_TAXABLE', false),
    jwtSecret,
    publicBaseUrl: publicBaseUrl.replace(/\/+$/, ''),
    paymentPlugins,
    paymentCapture: oneOf(env, 'PAYMENT_CAPTURE', { allowed: ['automatic', 'manual'] as const, fallback: 'automatic' }),
    admin:
      adminEmail !== undefined && adminPassword !== undefined
        ? { email: adminEmail.toLowerCase(), password: adminPassword }
        : undefined,
    seedDemo: boolean(env, 'SEED_DEMO', databaseUrl === undefined),
    logLevel,
    authRateLimitPerMinute: integer(env, 'AUTH_RATE_LIMIT_PER_MINUTE', { fallback: 20, min: 1, max: 1_000_000 }),
    promoRateLimitPerMinute: integer(env, 'PROMO_RATE_LIMIT_PER_MINUTE', { fallback: 30, min: 1, max: 100_000_000 }),
    webhookRateLimitPerMinute: integer(env, 'WEBHOOK_RATE_LIMIT_PER_MINUTE', {
      fallback: 1200,
      min: 1,
      max: 100_000_000,
    }),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisKeyPrefix: read(env, 'REDIS_KEY_PREFIX') ?? 'storefront-rate-limit-',
    maxLineQuantity: integer(env, 'MAX_LINE_QUANTITY', { fallback: 999, min: 1, max: 1_000_000 }),
    maxCartLines: integer(env, 'MAX_CART_LINES', { fallback: 200, min: 1, max: 10_000 }),
    trustProxy: boolean(env, 'TRUST_PROXY', false),
    referenceCacheTtlSeconds: integer(env, 'REFERENCE_CACHE_TTL_SECONDS', { fallback: 300, min: 0, max: 86_400 }),
    placementTimeoutMs: integer(env, 'PLACEMENT_TIMEOUT_MS', { fallback: 10_000, min: 1, max: 600_000 }),
    placementQueueLimit: integer(env, 'PLACEMENT_QUEUE_LIMIT', { fallback: 1000, min: 0, max: 100_000 }),
    cartWriteTimeoutMs: integer(env, 'CART_WRITE_TIMEOUT_MS', { fallback: 10_000, min: 1, max: 600_000 }),
    cartWriteQueueLimit: integer(env, 'CART_WRITE_QUEUE_LIMIT', { fallback: 1000, min: 0, max: 100_000 }),
    metricsToken,
    jobsEnabled: boolean(env, 'JOBS_ENABLED', true),
    jobsPollMs: integer(env, 'JOBS_POLL_MS', { fallback: 1_000, min: 10, max: 3_600_000 }),
    jobsConcurrency: integer(env, 'JOBS_CONCURRENCY', { fallback: 8, min: 1, max: 1_000 }),
    webhooks,
    storeName,
    returnInstructions,
    smtpUrl: smtpUrl(env),
    mailFrom: mailFrom(env, { storeName, publicBaseUrl }),
    orderEmailLinkDays: integer(env, 'ORDER_EMAIL_LINK_DAYS', { fallback: 7, min: 1, max: 90 }),
    unpaidOrderTtlMinutes: integer(env, 'UNPAID_ORDER_TTL_MINUTES', { fallback: 60, min: 0, max: 525_600 }),
    marketRatesUrl: read(env, 'MARKET_RATES_URL'),
    marketRatesIntervalMinutes: integer(env, 'MARKET_RATES_INTERVAL_MINUTES', { fallback: 60, min: 1, max: 10_080 }),
    autoApprovePaidOrders: boolean(env, 'AUTO_APPROVE_PAID_ORDERS', true),
    carrierTrackingUrls: carrierTrackingUrls(env),
    captureOnShipment: boolean(env, 'CAPTURE_ON_SHIPMENT', true),
    media: mediaSettings(env),
  };
}

import { randomUUID } from 'node:crypto';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { addressRoutes } from './addresses/addresses.routes.js';
import { authRoutes } from './auth/auth.routes.js';
import { cartTokenFrom } from './cart/cart-token.js';
import { cartRoutes } from './cart/cart.routes.js';
import { batchedCartReads } from './cart/cart.repository.js';
import { mergeGuestCart } from './cart/cart.service.js';
import { catalogAdminRoutes, catalogStorefrontRoutes } from './catalog/catalog.routes.js';
import type { TokenService } from './auth/tokens.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { eventAdminRoutes } from './events/events.routes.js';
import { Outbox } from './events/outbox.js';
import { registerEmailJobs } from './emails/email-jobs.js';
import { createMailer } from './emails/mailer.js';
import { registerAuthentication } from './http/auth.js';
import {
  answerClientError,
  answerFrameworkError,
  registerErrorHandling,
  requireHostHeader,
} from './http/error-handler.js';
import { withSafeErrorLogging } from './shared/error-log.js';
import { registerJsonBodyParser } from './http/raw-json.js';
import { rateLimitBackend } from './http/rate-limit-store.js';
import { documentedRouteSchema } from './http/openapi.js';
import { Problem } from './http/schemas.js';
import { validatorCompiler } from './http/validation.js';
import { JobQueue } from './jobs/job-queue.js';
import { startJobWorker } from './jobs/worker.js';
import { healthRoutes } from './ops/health.routes.js';
import { createMetrics } from './ops/metrics.js';
import { metricsRoutes } from './ops/metrics.routes.js';
import { homeRoutes } from './ops/home.routes.js';
import { paymentAdminRoutes, paymentRoutes } from './payments/payments.routes.js';
import type { PaymentRegistry } from './payments/plugin-registry.js';
import { estimateRoutes } from './orders/estimate.routes.js';
import { placementRoutes } from './orders/placement.routes.js';
import { ReferenceCache } from './orders/reference-cache.js';
import { orderAdminRoutes, orderRoutes } from './orders/orders.routes.js';
import { registerOrderExpiry, scheduleOrderExpiry } from './orders/order-expiry.js';
import { cancelOrderWithRefund } from './payments/payments.admin.js';
import { orderPageRoutes } from './checkout/order-page.routes.js';
import { paymentReturnRoutes } from './checkout/payment-return.routes.js';
import { promoCodeAdminRoutes } from './promotions/promo-codes.routes.js';
import { promotionAdminRoutes } from './promotions/promotions.routes.js';
import { shippingAdminRoutes, shippingStorefrontRoutes } from './shipping/shipping.routes.js';
import { taxAdminRoutes } from './tax/tax.routes.js';
import { WebhookConnections } from './webhooks/webhook-connections.js';
import { registerWebhookJobs } from './webhooks/webhook-jobs.js';
import { deliveriesFanOut } from './webhooks/delivery-schedule.js';
import { webhookAdminRoutes } from './webhooks/webhooks.routes.js';
import { loadWebApps, type WebApps } from './webapp/webapp.js';
import { appPageFallback, webAppRoutes } from './webapp/webapp.routes.js';
import { DomainError } from './shared/errors.js';
import { currencyFormat } from './shared/money.js';

export interface AppDeps {
  config: Config;
  database: Database;
  tokens: TokenService;
  /** The enabled payment plugins (loaded and validated at start). */
  payments: PaymentRegistry;
  /** Fastify logger options; false in tests. */
  logger?: FastifyServerOptions['logger'];
  /** Node's process metrics on GET /metrics (the service's one app: yes; apps built in tests: no). */
  processMetrics?: boolean;
  /**
   * Called while the app is built, before its worker starts, with the job queue and the outbox: to register more job
   * handlers and event subscribers than the service's own modules do (tests, a store's own extensions).
   */
  background?: (parts: { jobs: JobQueue; outbox: Outbox }) => void;
  /**
   * The storefront and dashboard (SPEC section 12), as built into dist/public; by default read from there, if built.
   * null: serve the API only.
   */
  webApps?: WebApps | null;
}

/** Anything that could carry a credential or personal data never reaches the logs. */
export const redactedPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-cart-token"]',
  'req.headers["x-order-token"]',
  'req.headers["stripe-signature"]',
  'req.headers["x-sandbox-signature"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.refresh',
  '*.access',
  '*.token',
  '*.secret',
];

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Log levels at which the per-request line is written. */
const INFO_OR_MORE = new Set(['info', 'debug', 'trace']);

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: withSafeErrorLogging(deps.logger),
    bodyLimit: 1024 * 1024,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // Node's own check answers a bare 400; requireHostHeader() answers it as problem+json instead.
    http: { requireHostHeader: false },
    trustProxy: deps.config.trustProxy,
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { ignoreTrailingSlash: true },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // Only JSON bodies are accepted; a text/plain body is a 415, not a string to validate.
  app.removeContentTypeParser(['text/plain']);
  registerJsonBodyParser(app);
  app.addSchema(Problem);

  // Callback hooks, as every hook each request runs: no promise and no extra microtask per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // One log line per request (SPEC 8); the query string is left out since it can carry payloads.
  app.addHook('onResponse', (request, reply, done) => {
    if (!INFO_OR_MORE.has(request.log.level)) {
      done();
      return;
    }
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? null,
        path: request.url.split('?')[0],
        status: reply.statusCode,
        duration_ms: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request',
    );
    done();
  });

  const metrics = createMetrics({
    database: deps.database,
    log: app.log,
    processMetrics: deps.processMetrics ?? false,
  });
  // A callback hook: no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    metrics.requestAnswered(request, reply);
    done();
  });

  const webApps = deps.webApps === undefined ? loadWebApps() : (deps.webApps ?? undefined);
  registerErrorHandling(app, { notFoundFallback: webApps && appPageFallback(webApps) });
  requireHostHeader(app);
  registerAuthentication(app, deps.tokens);

  const limits = rateLimitBackend({ config: deps.config, database: deps.database, log: app.log });
  app.addHook('onClose', async () => limits.close());
  await app.register(rateLimit, {
    ...limits.options,
    global: false,
    errorResponseBuilder: (_request, context) =>
      new DomainError('rate_limited', {
        detail: `too many requests; retry in ${context.after}`,
      }),
  });

  await app.register(swagger, {
    transform: ({ schema, url }) => ({ schema: documentedRouteSchema(schema), url }),
    refResolver: {
      // biome-ignore lint/complexity/useMaxParams: @fastify/swagger calls this with (json, baseUri, fragment, i).
      buildLocalReference: (json, _base, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Storefront commerce API',
        version: '0.1.0',
        description: 'Cart, order estimate and placement, and payments. Errors are RFC 9457 problem+json.',
      },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  const { config } = deps;
  const db = deps.database.db;
  // Background work: modules register job handlers and event subscribers here while the app is built; the worker
  // starts once the app is ready and stops (finishing or releasing its jobs) when it closes.
  const jobs = new JobQueue();
  const outbox = new Outbox(jobs);
  const money = currencyFormat(config.storeCurrency);
  // Reference data for quotes, in memory. This process's own admin writes clear it before they
  // are answered, so a change is seen by the next request; other processes hear of it from the
  // database's change feed.
  const cache = new ReferenceCache(deps.database.changes, {
    ttlMs: config.referenceCacheTtlSeconds * 1000,
    maxEntries: 100_000,
  });
  app.addHook('onClose', async () => cache.close());
  // One SMTP pool per app for the customer emails (src/emails/order-emails.ts), closed with it, after the worker
  // that sends them has stopped (below).
  const mailer = createMailer(config);
  const referenceChanged = () => cache.invalidate();
  const cart = {
    db,
    reads: batchedCartReads(deps.database),
    money,
    limits: { maxLineQuantity: config.maxLineQuantity, maxCartLines: config.maxCartLines },
  };

  await app.register(healthRoutes({ database: deps.database }));
  await app.register(metricsRoutes({ registry: metrics.registry, token: config.metricsToken }));
  await app.register(homeRoutes({ storeName: config.storeName, currency: config.storeCurrency, webApps }));
  if (webApps) await app.register(webAppRoutes(webApps));
  await app.register(
    authRoutes({
      db,
      tokens: deps.tokens,
      config,
      // A guest who signs in with their cart token brings the cart along; a bad token merges nothing.
      afterSignIn: async (request, userId) => {
        let token: string | undefined;
        try {
          token = cartTokenFrom(request.headers['x-cart-token']);
        } catch {
          return;
        }
        if (token) await mergeGuestCart(cart, { userId, token });
      },
    }),
  );
  await app.register(addressRoutes({ db }));
  await app.register(catalogAdminRoutes({ db, money, referenceChanged }));
  await app.register(catalogStorefrontRoutes({ db, money }));
  await app.register(cartRoutes(cart));
  await app.register(taxAdminRoutes({ db, money, referenceChanged }));
  await app.register(shippingAdminRoutes({ db, money, referenceChanged }));
  await app.register(shippingStorefrontRoutes({ db, money }));
  await app.register(promotionAdminRoutes({ db, money, referenceChanged }));
  await app.register(promoCodeAdminRoutes({ db, money, referenceChanged }));
  const promoLimiter = app.createRateLimit({
    max: config.promoRateLimitPerMinute,
    timeWindow: '1 minute',
    // Its own key space: a limiter made here has no route to tell it apart in a shared store.
    keyGenerator: (request) => `promo-code-${normalizeIP(request.ip)}`,
  });
  await app.register(estimateRoutes({ db, config, money, promoLimiter, cache }));
  await app.register(
    placementRoutes({
      database: deps.database,
      config,
      money,
      promoLimiter,
      cache,
      metrics: metrics.placement,
      outbox,
    }),
  );
  const payments = {
    db,
    outbox,
    registry: deps.payments,
    publicBaseUrl: config.publicBaseUrl,
    log: app.log,
    tokens: deps.tokens,
    autoApprovePaidOrders: config.autoApprovePaidOrders,
    paymentCapture: config.paymentCapture,
  };
  await app.register(orderRoutes({ db }));
  await app.register(
    orderAdminRoutes({
      db,
      outbox,
      cancelWithRefund: (alias, options) => cancelOrderWithRefund(payments, alias, options),
    }),
  );
  await app.register(eventAdminRoutes({ db }));
  await app.register(orderPageRoutes({ db, tokens: deps.tokens }));
  await app.register(paymentRoutes({ ...payments, webhookRateLimitPerMinute: config.webhookRateLimitPerMinute }));
  await app.register(paymentReturnRoutes({ db, tokens: deps.tokens, publicBaseUrl: config.publicBaseUrl }));
  await app.register(paymentAdminRoutes(payments));
  await app.register(webhookAdminRoutes({ db, settings: config.webhooks, jobs }));
  // Gateways the service hosts itself (the sandbox) deliver their webhooks through the real route.
  deps.payments.bindWebhookDelivery(async (pluginId, request) => {
    const res = await app.inject({
      method: 'POST',
      url: `/payment/storefront/api/webhook-view/${pluginId}/`,
      headers: request.headers,
      payload: request.rawBody,
    });
    return { status: res.statusCode };
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  // The service's own background work: webhook deliveries (made by a job that the statements recording events
  // enqueue) and customer emails (a job per order event that calls for one).
  const connections = new WebhookConnections(config.jobsConcurrency);
  registerWebhookJobs(jobs, { database: deps.database, settings: config.webhooks, connections });
  outbox.fanOutInSql(deliveriesFanOut);
  registerEmailJobs({ jobs, outbox }, { db, tokens: deps.tokens, mailer, log: app.log, config });
  registerOrderExpiry({
    db,
    outbox,
    ttlMinutes: config.unpaidOrderTtlMinutes,
    exemptPluginIds: deps.payments
      .list()
      .filter((p) => p.manualCapture)
      .map((p) => p.id),
  });
  if (config.jobsEnabled && config.unpaidOrderTtlMinutes > 0) {
    app.addHook('onReady', async () => {
      await scheduleOrderExpiry({ db, jobs });
    });
  }
  deps.background?.({ jobs, outbox });
  let worker: ReturnType<typeof startJobWorker> | undefined;
  if (config.jobsEnabled) {
    app.addHook('onReady', async () => {
      worker = startJobWorker({
        database: deps.database,
        queue: jobs,
        log: app.log,
        pollMs: config.jobsPollMs,
        concurrency: config.jobsConcurrency,
      });
    });
  }
  // The worker first (its running jobs finish or are given back), then the SMTP pool its emails went through.
  app.addHook('onClose', async () => {
    await worker?.stop();
    mailer.close();
    connections.close();
  });

  return app;
}

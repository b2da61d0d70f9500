import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { addressRoutes } from './addresses/addresses.routes.js';
import { authRoutes } from './auth/auth.routes.js';
import type { TokenService } from './auth/tokens.js';
import { batchedCartReads } from './cart/cart.repository.js';
import { cartWriter } from './cart/cart.write.js';
import { cartRoutes, mergeCartAtSignIn } from './cart/cart.routes.js';
import { catalogAdminRoutes, catalogStorefrontRoutes } from './catalog/catalog.routes.js';
import { categoryAdminRoutes } from './catalog/categories.routes.js';
import { optionAdminRoutes } from './catalog/options.routes.js';
import { collectionAdminRoutes } from './catalog/collections.routes.js';
import { navigationStorefrontRoutes } from './catalog/navigation.routes.js';
import { postgresProductSearch } from './search/search.repository.js';
import { searchStorefrontRoutes } from './search/search.routes.js';
import { openStorefrontCatalog } from './catalog/storefront-catalog.js';
import { orderPageRoutes } from './checkout/order-page.routes.js';
import { paymentReturnRoutes } from './checkout/payment-return.routes.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { registerCustomerEmails } from './emails/email-jobs.js';
import { eventAdminRoutes } from './events/events.routes.js';
import { Outbox } from './events/outbox.js';
import { registerAuthentication } from './http/auth.js';
import { registerErrorHandling, requireHostHeader } from './http/error-handler.js';
import { registerOpenApi } from './http/openapi.js';
import { registerRateLimits } from './http/rate-limit-store.js';
import { createServer } from './http/server.js';
import { JobQueue } from './jobs/job-queue.js';
import { runJobWorker } from './jobs/worker.js';
import { healthRoutes } from './ops/health.routes.js';
import { homeRoutes } from './ops/home.routes.js';
import { registerMetrics } from './ops/metrics.js';
import { metricsRoutes } from './ops/metrics.routes.js';
import { estimateRoutes } from './placement/estimate.routes.js';
import { expireUnpaidOrdersInBackground } from './orders/order-expiry.js';
import { updateMarketRatesInBackground } from './markets/market-rates.job.js';
import { jsonRateSource } from './markets/rate-source.js';
import { orderEditRoutes } from './order-edits/order-edits.routes.js';
import { type CancelWithRefund, orderAdminRoutes, orderRoutes } from './orders/orders.routes.js';
import { fulfillmentAdminRoutes } from './orders/fulfillments.routes.js';
import type { CaptureShipped } from './orders/fulfillments.service.js';
import { captureShipped } from './payments/shipment-capture.js';
import { refundReturn } from './payments/return-refunds.js';
import { type RefundReturn, returnAdminRoutes, returnStorefrontRoutes } from './returns/returns.routes.js';
import { placementRoutes } from './placement/placement.routes.js';
import { promoCodeLimiter } from './placement/promo-rate-limit.js';
import { openReferenceCache } from './placement/reference-cache.js';
import { preparedQuoteReads } from './placement/order-quote.repository.js';
import { gatewayEventDecider } from './payments/gateway-event-batches.js';
import { cancelOrderWithRefund } from './payments/payments.admin.js';
import { paymentAdminRoutes, paymentRoutes } from './payments/payments.routes.js';
import { manualCapturePluginIds, type PaymentRegistry } from './payments/plugin-registry.js';
import { mediaServingRoutes } from './media/media-serving.routes.js';
import { mediaAdminRoutes } from './media/media.routes.js';
import { openMediaStorage } from './media/open-storage.js';
import { ServedImages } from './media/served-images.js';
import { marketAdminRoutes, marketStorefrontRoutes } from './markets/markets.routes.js';
import { openMarketDirectory } from './markets/market-directory.js';
import { variantPriceAdminRoutes } from './markets/variant-prices.routes.js';
import { promoCodeAdminRoutes } from './promotions/promo-codes.routes.js';
import { promotionAdminRoutes } from './promotions/promotions.routes.js';
import { currencyFormat } from './shared/money.js';
import { openShippingDestinations } from './shipping/shipping-destinations.js';
import { shippingAdminRoutes, shippingStorefrontRoutes } from './shipping/shipping.routes.js';
import { taxAdminRoutes } from './tax/tax.routes.js';
import { loadWebApps, type WebApps } from './webapp/webapp.js';
import { appPageFallback, webAppRoutes } from './webapp/webapp.routes.js';
import { registerWebhookDeliveries } from './webhooks/webhook-jobs.js';
import { webhookAdminRoutes } from './webhooks/webhooks.routes.js';

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

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database, tokens } = deps;
  const db = database.db;
  const app = createServer({ logger: deps.logger, trustProxy: config.trustProxy });
  const metrics = registerMetrics(app, { database, processMetrics: deps.processMetrics ?? false });
  const webApps = deps.webApps === undefined ? loadWebApps() : (deps.webApps ?? undefined);
  registerErrorHandling(app, { notFoundFallback: webApps && appPageFallback(webApps) });
  requireHostHeader(app);
  registerAuthentication(app, tokens);
  await registerRateLimits(app, { config, database });
  await registerOpenApi(app);

  // Background work: the modules register their job handlers and event subscribers while the app is built.
  const jobs = new JobQueue();
  const outbox = new Outbox(jobs);
  const money = currencyFormat(config.storeCurrency);
  const ttlSeconds = config.referenceCacheTtlSeconds;
  const cache = openReferenceCache(app, { changes: database.changes, ttlSeconds });
  const catalog = openStorefrontCatalog(app, { database, ttlSeconds });
  const { storeCurrency, pricesIncludeTax, roundingMode } = config;
  const markets = openMarketDirectory(app, {
    db,
    feed: database.changes,
    ttlSeconds,
    store: { storeCurrency, pricesIncludeTax, roundingMode },
  });
  const destinations = openShippingDestinations(app, { db, feed: database.changes, ttlSeconds });
  const search = postgresProductSearch(database, { ttlMs: ttlSeconds * 1000 });
  app.addHook('onClose', async () => search.close());
  const referenceChanged = () => {
    cache.invalidate();
    catalog.invalidate();
    search.invalidate();
    markets.invalidate();
    destinations.invalidate();
  };
  const limits = { maxLineQuantity: config.maxLineQuantity, maxCartLines: config.maxCartLines };
  const cart = {
    db,
    reads: batchedCartReads(database),
    writer: cartWriter(database, { limits, maxQueued: config.cartWriteQueueLimit, metrics: metrics.cart }),
    writeTimeoutMs: config.cartWriteTimeoutMs,
    money,
    limits,
    markets,
    // The quotes' variants, from the reference cache: a line's options and image cost no statement once read.
    shownItems: cache.reads(preparedQuoteReads(db)).variantsByAlias,
  };
  const promoLimiter = promoCodeLimiter(app, config.promoRateLimitPerMinute);
  const { publicBaseUrl, autoApprovePaidOrders, paymentCapture } = config;
  const paymentSettings = { publicBaseUrl, autoApprovePaidOrders, paymentCapture };
  const gatewayEvents = gatewayEventDecider(database);
  const payments = { db, gatewayEvents, outbox, tokens, registry: deps.payments, log: app.log, ...paymentSettings };

  await app.register(healthRoutes({ database }));
  await app.register(metricsRoutes({ registry: metrics.registry, token: config.metricsToken }));
  await app.register(homeRoutes({ storeName: config.storeName, currency: config.storeCurrency, webApps }));
  if (webApps) await app.register(webAppRoutes(webApps));
  await app.register(authRoutes({ db, tokens, config, afterSignIn: mergeCartAtSignIn(cart) }));
  await app.register(addressRoutes({ db }));
  await app.register(catalogAdminRoutes({ db, money, referenceChanged }));
  await app.register(optionAdminRoutes({ db, money, referenceChanged }));
  await app.register(catalogStorefrontRoutes({ catalog, money, markets }));
  await app.register(categoryAdminRoutes({ db, referenceChanged }));
  await app.register(collectionAdminRoutes({ db, referenceChanged }));
  await app.register(navigationStorefrontRoutes({ catalog, markets }));
  await app.register(searchStorefrontRoutes({ catalog, markets, search }));
  const mediaStorage = openMediaStorage(app, { settings: config.media, dataDir: config.dataDir });
  const imageLimits = { maxBytes: config.media.maxUploadBytes, maxPixels: config.media.maxPixels };
  await app.register(mediaAdminRoutes({ db, storage: mediaStorage, limits: imageLimits, referenceChanged }));
  const servedImages = new ServedImages(mediaStorage, {
    memoryBytes: config.media.memoryCacheBytes,
    maxPixels: config.media.maxPixels,
  });
  await app.register(mediaServingRoutes({ images: servedImages }));
  await app.register(cartRoutes(cart));
  await app.register(taxAdminRoutes({ db, money, referenceChanged }));
  await app.register(shippingAdminRoutes({ db, money, referenceChanged }));
  await app.register(shippingStorefrontRoutes({ db, money, destinations }));
  const storeMarket = { storeCurrency, pricesIncludeTax };
  const isPaymentPlugin = (id: string) => deps.payments.get(id) !== undefined;
  await app.register(marketAdminRoutes({ db, ...storeMarket, isPaymentPlugin, referenceChanged }));
  await app.register(marketStorefrontRoutes({ db, ...storeMarket }));
  await app.register(variantPriceAdminRoutes({ db, storeCurrency, referenceChanged }));
  await app.register(promotionAdminRoutes({ db, money, referenceChanged }));
  await app.register(promoCodeAdminRoutes({ db, money, referenceChanged }));
  await app.register(estimateRoutes({ db, config, money, promoLimiter, cache, markets, payments: payments.registry }));
  await app.register(
    placementRoutes({ database, config, money, promoLimiter, cache, markets, metrics: metrics.placement, outbox }),
  );
  await app.register(orderRoutes({ db, tokens }));
  const cancelWithRefund: CancelWithRefund = (alias, options) => cancelOrderWithRefund(payments, alias, options);
  await app.register(orderAdminRoutes({ db, outbox, cancelWithRefund, storeCurrency: config.storeCurrency, markets }));
  const captureOnShipment: CaptureShipped | undefined = config.captureOnShipment
    ? (change, request) => captureShipped(payments, change, request)
    : undefined;
  await app.register(
    fulfillmentAdminRoutes({
      database,
      outbox,
      trackingUrls: config.carrierTrackingUrls,
      captureShipped: captureOnShipment,
    }),
  );
  await app.register(
    orderEditRoutes({ db, outbox, storeCurrency: config.storeCurrency, roundingMode: config.roundingMode, markets }),
  );
  await app.register(
    returnStorefrontRoutes({ database, outbox, tokens, returnInstructions: config.returnInstructions }),
  );
  const refundReturned: RefundReturn = (input) => refundReturn({ ...payments, database, outbox }, input);
  await app.register(
    returnAdminRoutes({
      database,
      outbox,
      refundReturn: refundReturned,
      returnInstructions: config.returnInstructions,
    }),
  );
  await app.register(eventAdminRoutes({ db }));
  await app.register(orderPageRoutes({ db, tokens, shopServed: webApps !== undefined }));
  await app.register(paymentRoutes({ ...payments, webhookRateLimitPerMinute: config.webhookRateLimitPerMinute }));
  await app.register(paymentReturnRoutes({ db, tokens, publicBaseUrl }));
  await app.register(paymentAdminRoutes(payments));
  const { webhooks: settings, jobsConcurrency: concurrency, jobsEnabled, jobsPollMs: pollMs } = config;
  const deliveries = registerWebhookDeliveries(app, {
    database,
    outbox,
    settings,
    concurrency,
    pollMs,
    dispatch: jobsEnabled,
  });
  await app.register(webhookAdminRoutes({ db, settings, wakeDeliveries: deliveries.wake }));

  registerCustomerEmails(app, { db, tokens, outbox, config });
  const expiry = { ttlMinutes: config.unpaidOrderTtlMinutes, exemptPluginIds: manualCapturePluginIds(deps.payments) };
  expireUnpaidOrdersInBackground(app, { db, outbox, ...expiry, jobsEnabled });
  if (config.marketRatesUrl !== undefined) {
    updateMarketRatesInBackground(app, {
      db,
      jobs,
      source: jsonRateSource(config.marketRatesUrl),
      storeCurrency: config.storeCurrency,
      intervalMinutes: config.marketRatesIntervalMinutes,
      log: app.log,
      jobsEnabled,
    });
  }
  deps.background?.({ jobs, outbox });
  // Last: the worker stops first when the app closes, before what its jobs use (hooks close in reverse order).
  if (jobsEnabled) runJobWorker(app, { database, queue: jobs, pollMs: config.jobsPollMs, concurrency });
  return app;
}

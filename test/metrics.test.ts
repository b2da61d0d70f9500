import { register as globalRegistry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  buildTestApp,
  expectProblem,
  json,
  onPostgres,
  type SignedIn,
  signInAdmin,
  signUp,
  type TestApp,
} from './helpers.js';

const METRICS_TOKEN = 'scrape-token-0123456789abcdef';
let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  t = await buildTestApp({ config: { metricsToken: METRICS_TOKEN } });
  admin = await signInAdmin(t);
});
afterAll(() => t.close());

const scrape = (headers: Record<string, string> = bearer(admin.access)) =>
  t.app.inject({ method: 'GET', url: '/metrics', headers });

/** The value of one series line (name with its labels exactly as exposed), or undefined. */
function sample(body: string, series: string): number | undefined {
  const line = body.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('exposes requests by route and status with latencies, placements, batch sizes, the pool, payments', async () => {
    for (let i = 0; i < 2; i++) expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const unknownProduct = await t.app.inject({ method: 'GET', url: '/product/storefront/api/products/987654/' });
    expect(unknownProduct.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/no/such/route' })).statusCode).toBe(404);
    const product = await t.app.inject({
      method: 'POST',
      url: '/product/dashboard/api/products/',
      headers: bearer(admin.access),
      payload: { name: 'Metered', variants: [{ alias: 'metered', name: 'Metered', price: '4.00', stock: 3 }] },
    });
    expect(product.statusCode).toBe(201);
    const order = await t.app.inject({
      method: 'POST',
      url: '/order/storefront/api/guest-user-order-create/',
      payload: {
        variants: [{ alias: 'metered', quantity: 1 }],
        shipping_address: { country: 'US', email: 'metered@example.com' },
      },
    });
    expect(order.statusCode).toBe(201);
    const payment = await t.app.inject({
      method: 'POST',
      url: '/payment/storefront/api/start-payment/sandbox/',
      headers: { 'x-order-token': json(order).order_token },
      payload: { order_alias: json(order).order_alias },
    });
    expect(payment.statusCode).toBe(200);

    const res = await scrape();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const body = res.body;
    const requests = 'storefront_http_request_duration_seconds';
    expect(sample(body, `${requests}_count{method="GET",route="/healthz",status_code="200"}`)).toBe(2);
    expect(sample(body, `${requests}_bucket{le="10",method="GET",route="/healthz",status_code="200"}`)).toBe(2);
    expect(sample(body, `${requests}_bucket{le="+Inf",method="GET",route="/healthz",status_code="200"}`)).toBe(2);
    expect(sample(body, `${requests}_sum{method="GET",route="/healthz",status_code="200"}`)).toBeGreaterThan(0);
    // The route's pattern, never the URL that was asked for.
    const productRoute = '/product/storefront/api/products/:id/';
    expect(sample(body, `${requests}_count{method="GET",route="${productRoute}",status_code="404"}`)).toBe(1);
    expect(sample(body, `${requests}_count{method="GET",route="unmatched",status_code="404"}`)).toBe(1);
    const guestCreate = '/order/storefront/api/guest-user-order-create/';
    expect(sample(body, `${requests}_count{method="POST",route="${guestCreate}",status_code="201"}`)).toBe(1);
    expect(body).not.toContain('987654');
    expect(body).not.toContain('/no/such/route');

    expect(sample(body, 'storefront_orders_placed_total')).toBe(1);
    expect(sample(body, 'storefront_placement_batch_size_count')).toBe(1);
    expect(sample(body, 'storefront_placement_batch_size_bucket{le="1"}')).toBe(1);
    expect(sample(body, 'storefront_placement_batch_size_sum')).toBe(1);

    expect(sample(body, 'storefront_payments{state="pending"}')).toBe(1);
    expect(sample(body, 'storefront_payments{state="succeeded"}')).toBe(0);

    if (onPostgres) {
      expect(sample(body, 'storefront_db_pool_connections{state="max"}')).toBe(30);
      // No query is running while the scrape is answered, beyond the payments count that just ended.
      expect(sample(body, 'storefront_db_pool_connections{state="in_use"}')).toBeLessThanOrEqual(1);
      expect(sample(body, 'storefront_db_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(1);
      expect(sample(body, 'storefront_db_pool_waiting')).toBe(0);
    } else {
      expect(sample(body, 'storefront_db_pool_connections{state="max"}')).toBe(1);
      expect(body).not.toContain('storefront_db_pool_connections{state="in_use"}');
    }
  });

  it("keeps each app's metrics in its own registry, never prom-client's global one", async () => {
    expect(await globalRegistry.getMetricsAsJSON()).toEqual([]);
  });

  it('is 401 without credentials or with an unknown token, 403 for a customer, 200 with METRICS_TOKEN', async () => {
    expectProblem(await scrape({}), 401, 'unauthorized');
    expectProblem(await scrape(bearer('not-the-metrics-token-0123')), 401, 'invalid_token');
    const customer = await signUp(t.app);
    expectProblem(await scrape(bearer(customer.access)), 403, 'forbidden');
    const withToken = await scrape(bearer(METRICS_TOKEN));
    expect(withToken.statusCode).toBe(200);
    expect(withToken.body).toContain('storefront_http_request_duration_seconds_count');
  });

  it('is documented in /openapi.json beside the other operations routes, for Bearer credentials', async () => {
    const doc = json(await t.app.inject({ method: 'GET', url: '/openapi.json' }));
    const metrics = doc.paths['/metrics'].get;
    expect(metrics.tags).toEqual(doc.paths['/healthz'].get.tags);
    expect(metrics.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(metrics.responses)).toEqual(expect.arrayContaining(['200', '401', '403']));
    expect(Object.keys(metrics.responses['200'].content)).toEqual(['text/plain']);
  });
});

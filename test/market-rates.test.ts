import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { updateMarketRates } from '../src/markets/market-rates.job.js';
import { jsonRateSource } from '../src/markets/rate-source.js';
import { adminApi, type AdminApi } from './fixtures.js';
import { buildTestApp, signInAdmin, type TestApp } from './helpers.js';

// The rate source seam (issue #28): a JSON rate document served on loopback, read by jsonRateSource, written onto the
// store's markets by the market-rates job's run (updateMarketRates). A USD store with jp (JPY 151.37), eu (EUR 0.92)
// and kw (KWD 0.3075).

let t: TestApp;
let api: AdminApi;
let server: Server;
let document = '';
let url = '';
const ids: Record<string, number> = {};
const rateOf = async (code: string) => (await api.get(`/market/dashboard/api/markets/${ids[code]}/`)).exchange_rate;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url !== '/rates.json') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(document);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rates.json`;
  // No worker: each run here is called by the test, never by a job at a time of its own.
  t = await buildTestApp({ config: { marketRatesUrl: url, jobsEnabled: false } });
  api = adminApi(t, await signInAdmin(t));
  await api.product({ name: 'Pen', variants: [{ alias: 'r-pen', name: 'Pen', price: '10.00', stock: 10 }] });
  for (const [code, currency, rate] of [
    ['jp', 'JPY', '151.37'],
    ['eu', 'EUR', '0.92'],
    ['kw', 'KWD', '0.3075'],
  ] as const) {
    ids[code] = (
      await api.post('/market/dashboard/api/markets/', { code, name: code, currency, exchange_rate: rate })
    ).id;
  }
});
afterAll(async () => {
  await t?.close();
  server?.close();
});

const run = (location = url) =>
  updateMarketRates({ db: t.database.db, source: jsonRateSource(location), storeCurrency: 'USD' });

describe('market rates from a JSON rate source', () => {
  it('writes the rates the document has, leaving out floats and currencies it lacks', async () => {
    document = JSON.stringify({ base: 'USD', rates: { JPY: '140.5', EUR: 0.95, GBP: '0.8' } });
    expect(await run()).toEqual(['jp']);
    expect(await rateOf('jp')).toBe('140.5');
    // EUR as a JSON number (a float) is refused; KWD is not in the document: both keep their rate.
    expect(await rateOf('eu')).toBe('0.92');
    expect(await rateOf('kw')).toBe('0.3075');
    // The storefront prices at the new rate: 10.00 USD at 140.5 = ¥1,405.
    const page = await t.app.inject({
      method: 'GET',
      url: '/product/storefront/api/products/',
      headers: { 'x-market': 'jp' },
    });
    expect(JSON.parse(page.body).items[0].variants[0].price).toBe('1405');
  });

  it('changes nothing when the rates are the same, and skips a rate an admin could not set', async () => {
    document = JSON.stringify({ base: 'USD', rates: { JPY: '140.50', EUR: '0', KWD: '1e3' } });
    expect(await run()).toEqual([]);
    expect([await rateOf('jp'), await rateOf('eu'), await rateOf('kw')]).toEqual(['140.5', '0.92', '0.3075']);
  });

  it('refuses a document of another base currency, or none at all, changing nothing', async () => {
    document = JSON.stringify({ base: 'EUR', rates: { JPY: '160' } });
    await expect(run()).rejects.toThrow(/rates from EUR, not USD/);
    document = 'not json';
    await expect(run()).rejects.toThrow(/not JSON/);
    await expect(run(url.replace('rates.json', 'missing.json'))).rejects.toThrow(/HTTP 404/);
    expect(await rateOf('jp')).toBe('140.5');
  });

  it('is configured by MARKET_RATES_URL and MARKET_RATES_INTERVAL_MINUTES', () => {
    const config = loadConfig({ DATA_DIR: '/tmp', MARKET_RATES_URL: url, MARKET_RATES_INTERVAL_MINUTES: '15' });
    expect(config).toMatchObject({ marketRatesUrl: url, marketRatesIntervalMinutes: 15 });
    expect(loadConfig({ DATA_DIR: '/tmp' })).toMatchObject({
      marketRatesUrl: undefined,
      marketRatesIntervalMinutes: 60,
    });
  });
});

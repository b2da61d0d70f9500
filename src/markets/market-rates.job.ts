import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Db } from '../db/client.js';
import { enqueueJob, type JobQueue } from '../jobs/job-queue.js';
import { DomainError } from '../shared/errors.js';
import { formatDecimal } from '../shared/money.js';
import { largestStorePrice, listMarkets, updateMarket } from './markets.repository.js';
import { checkLargestPriceConverts, marketChangeValues, type MarketColumns } from './markets.values.js';
import type { RateSource } from './rate-source.js';

export const MARKET_RATES_JOB_KIND = 'market_rates';

export interface MarketRatesDeps {
  db: Db;
  jobs: JobQueue;
  source: RateSource;
  storeCurrency: string;
  intervalMinutes: number;
  log?: FastifyBaseLogger;
}

/**
 * Writes today's rates onto the store's markets: each market (not the default) in another currency than the store's
 * whose rate the source answers and that differs gets it, checked as an admin's change is (a rate out of range, or one
 * at which the store's largest price would not convert, is skipped and logged). Written like an admin's change: the
 * change feed clears every process's markets, and a placement priced at the old rate is priced again (decision 0031).
 * Answers the codes of the markets changed.
 */
export async function updateMarketRates(deps: Omit<MarketRatesDeps, 'jobs' | 'intervalMinutes'>): Promise<string[]> {
  const records = (await listMarkets(deps.db)).filter(
    (r) => !r.row.isDefault && r.row.currency !== null && r.row.currency !== deps.storeCurrency,
  );
  if (records.length === 0) return [];
  const currencies = [...new Set(records.map((r) => r.row.currency ?? ''))];
  const rates = await deps.source.ratesFor({ base: deps.storeCurrency, currencies });
  const changed: string[] = [];
  for (const { row } of records) {
    const rate = row.currency === null ? undefined : rates[row.currency];
    if (rate === undefined) continue;
    try {
      const values = marketChangeValues({ exchange_rate: rate }, row, {
        storeCurrency: deps.storeCurrency,
        isPaymentPlugin: () => true,
      });
      if (values.columns.exchangeRate === undefined || sameRate(values.columns, row.exchangeRate)) continue;
      const { currency, exchangeRate, roundingStep, priceEnding, roundingDirection } = values.columns as MarketColumns;
      checkLargestPriceConverts(
        { currency, exchangeRate, roundingStep, priceEnding, roundingDirection },
        { largestMinor: await largestStorePrice(deps.db), storeCurrency: deps.storeCurrency },
      );
      await updateMarket(deps.db, row.id, { columns: { exchangeRate }, lists: {} });
      changed.push(row.code);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      deps.log?.warn({ market: row.code, rate, reason: err.detail }, 'market rate from the rate source not written');
    }
  }
  if (changed.length > 0) deps.log?.info({ markets: changed }, 'market rates updated from the rate source');
  return changed;
}

function sameRate(columns: Partial<MarketColumns>, stored: string | null): boolean {
  if (stored === null || columns.exchangeRate === undefined) return false;
  return columns.exchangeRate === formatDecimal(stored);
}

/** The key of the run of the slot holding `at`: every process enqueues the same one, so it runs once per slot. */
const slotKey = (at: number, intervalMs: number) => `slot-${Math.floor(at / intervalMs)}`;

/**
 * The rate job, when MARKET_RATES_URL is set: registered in every process (as every handler), its first run enqueued
 * once the app is ready where this process runs jobs; each run enqueues the next slot's, then updates the rates.
 */
export function updateMarketRatesInBackground(
  app: FastifyInstance,
  deps: MarketRatesDeps & { jobsEnabled: boolean },
): void {
  const intervalMs = deps.intervalMinutes * 60_000;
  deps.jobs.handle(MARKET_RATES_JOB_KIND, async () => {
    const next = (Math.floor(Date.now() / intervalMs) + 1) * intervalMs;
    await enqueueJob(deps.db, deps.jobs, {
      kind: MARKET_RATES_JOB_KIND,
      key: slotKey(next, intervalMs),
      runAt: new Date(next),
    });
    await updateMarketRates(deps);
  });
  if (!deps.jobsEnabled) return;
  app.addHook('onReady', async () => {
    await enqueueJob(deps.db, deps.jobs, { kind: MARKET_RATES_JOB_KIND, key: slotKey(Date.now(), intervalMs) });
  });
}

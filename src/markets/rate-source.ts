import { readFile } from 'node:fs/promises';
import { MoneyFormatError, parseDecimal } from '../shared/money.js';

/**
 * Where today's exchange rates come from (issue #28): a seam with one implementation here (`jsonRateSource`), for a
 * store to put its bank's or a provider's feed behind. The market-rates job (market-rates.job.ts) asks it for the
 * currencies of the store's markets and writes the rates it answers onto them.
 */
export interface RateSource {
  /**
   * Today's rates from the store currency `base` into each of `currencies`: units of the currency one unit of `base`
   * buys, as exact decimal strings (`"151.37"`), never floats. A currency the source has no rate for is left out of
   * the answer (its markets keep their rate). Throws when the source cannot be read at all.
   */
  ratesFor(input: { base: string; currencies: readonly string[] }): Promise<Record<string, string>>;
}

/** What a JSON rate document holds: `{"base": "USD", "rates": {"JPY": "151.37", "EUR": "0.92"}}`. */
interface RateDocument {
  base: string;
  rates: Record<string, string>;
}

function rateDocument(text: string, where: string): RateDocument {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${where}: not JSON`);
  }
  const doc = parsed as Partial<RateDocument> | null;
  if (typeof doc?.base !== 'string' || typeof doc.rates !== 'object' || doc.rates === null) {
    throw new Error(`${where}: expected {"base": "USD", "rates": {"JPY": "151.37", …}}`);
  }
  return doc as RateDocument;
}

/**
 * Rates from a JSON document (`RateDocument`) at a local file path or an http(s) URL (MARKET_RATES_URL). Each rate must
 * be a decimal string with at most 10 decimals (a JSON number is refused: it would be a float); the document's `base`
 * must be the store currency. A rate that is not one is left out and named in `skipped`.
 */
export function jsonRateSource(
  location: string,
  options: { skipped?: (currency: string, reason: string) => void } = {},
): RateSource {
  const read = async () => {
    if (/^https?:\/\//.test(location)) {
      const res = await fetch(location, { signal: AbortSignal.timeout(10_000) });
      if (!res.ok) throw new Error(`${location}: HTTP ${res.status}`);
      return res.text();
    }
    return readFile(location.startsWith('file://') ? new URL(location) : location, 'utf8');
  };
  return {
    async ratesFor({ base, currencies }) {
      const doc = rateDocument(await read(), location);
      if (doc.base.toUpperCase() !== base) throw new Error(`${location}: rates from ${doc.base}, not ${base}`);
      const answer: Record<string, string> = {};
      for (const currency of currencies) {
        const rate = doc.rates[currency];
        if (rate === undefined) continue;
        try {
          if (typeof rate !== 'string') throw new MoneyFormatError('must be a decimal string');
          parseDecimal(rate, 10);
          answer[currency] = rate;
        } catch (err) {
          if (!(err instanceof MoneyFormatError)) throw err;
          options.skipped?.(currency, `${err.message}: ${JSON.stringify(rate).slice(0, 40)}`);
        }
      }
      return answer;
    },
  };
}

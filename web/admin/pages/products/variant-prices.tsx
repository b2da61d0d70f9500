import { useState } from 'preact/hooks';
import { type Answer, ok } from '../../../api/client';
import { fieldError, problemBeyondFields } from '../../../shared/problem';
import { ErrorMessage, Field, Money } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { useLoaded } from '../../use-loaded';
import { useWrite } from '../../use-write';
import { StatusMessage } from '../common/form-parts';
import type { Market } from '../markets/market-draft';
import { roundingExample } from '../markets/rounding-example';
import type { Variant } from './variant-draft';

type ExplicitPrice = Answer<'/product/dashboard/api/variants/{id}/prices/', 'get'>[number];

/** One explicit price as typed: a blank compare-at price is none. */
interface PriceText {
  /** Keeps a row's inputs its own when a row above it is removed. */
  key: number;
  currency: string;
  price: string;
  compare_at_price: string;
}

let nextKey = 0;
const priceText = (p: Pick<ExplicitPrice, 'currency' | 'price' | 'compare_at_price'>): PriceText => ({
  key: nextKey++,
  currency: p.currency,
  price: p.price,
  compare_at_price: p.compare_at_price ?? '',
});

/** What each market other than the default charges for the variant: its explicit price, else the converted one. */
function MarketPrices(props: {
  variant: Variant;
  markets: Market[];
  explicit: ExplicitPrice[];
  storeCurrency: string;
}) {
  const others = props.markets.filter((m) => !m.is_default);
  if (others.length === 0) return null;
  return (
    <ul class="plain">
      {others.map((market) => {
        const own = props.explicit.find((p) => p.currency === market.currency);
        const converted = own
          ? undefined
          : roundingExample(
              { ...market, rounding_step: market.rounding_step ?? '' },
              { currency: props.storeCurrency, price: props.variant.price },
            );
        return (
          <li key={market.id}>
            {market.name} ({market.code}):{' '}
            {own ? (
              <>
                <Money amount={own.price} currency={own.currency} /> (explicit)
              </>
            ) : converted ? (
              <>
                <Money amount={converted.rounded} currency={converted.currency} /> (converted at {market.exchange_rate})
              </>
            ) : (
              `converted into ${market.currency}`
            )}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * A variant's explicit prices in other currencies than the store's (`GET`/`PUT …/variants/{id}/prices/`): listed,
 * added, changed and removed, then saved as a whole list. Errors are shown beside the row and field they name
 * (`prices[1].price`).
 */
export function VariantPrices(props: { variant: Variant }) {
  const { variant } = props;
  const { api, currency } = useDashboard();
  const path = { params: { path: { id: variant.id } } };
  const stored = useLoaded(
    () => ok(api.GET('/product/dashboard/api/variants/{id}/prices/', path)),
    `variant-prices-${variant.id}`,
  );
  const markets = useLoaded(() => ok(api.GET('/market/dashboard/api/markets/')), 'markets');
  const [rows, setRows] = useState<PriceText[]>();
  const write = useWrite();
  const shown = rows ?? stored.data?.map(priceText);
  const error = (i: number, field: keyof PriceText) => fieldError(write.problem, `prices[${i}].${field}`);
  const otherCurrencies = [...new Set((markets.data ?? []).filter((m) => !m.is_default).map((m) => m.currency))].filter(
    (c) => !shown?.some((row) => row.currency.toUpperCase() === c),
  );

  const change = (i: number, next: Partial<PriceText>) =>
    setRows((shown ?? []).map((row, j) => (j === i ? { ...row, ...next } : row)));
  const save = (event: Event) => {
    event.preventDefault();
    const prices = (shown ?? []).map((row) => ({
      currency: row.currency.trim().toUpperCase(),
      price: row.price.trim(),
      compare_at_price: row.compare_at_price.trim() === '' ? null : row.compare_at_price.trim(),
    }));
    void write
      .run(
        () => ok(api.PUT('/product/dashboard/api/variants/{id}/prices/', { ...path, body: { prices } })),
        (saved) =>
          saved.length === 0
            ? `No explicit prices: ${variant.name} is converted in every market.`
            : `Prices of ${variant.name} saved: ${saved.map((p) => `${p.price} ${p.currency}`).join(', ')}.`,
      )
      .then((saved) => {
        if (!saved) return;
        stored.show(saved);
        setRows(undefined);
      });
  };

  return (
    <form class="panel" onSubmit={save} noValidate aria-labelledby={`variant-${variant.id}-prices`}>
      <h3 id={`variant-${variant.id}-prices`}>Prices in other currencies</h3>
      <p class="muted">
        The price above is in {currency}. A market in another currency charges the price given here in its currency;
        without one, it converts the {currency} price at its rate and rounds it by its rule.
      </p>
      <ErrorMessage problem={stored.problem ?? markets.problem} />
      {shown === undefined && stored.problem === undefined && <p>Loading…</p>}
      {markets.data && stored.data && (
        <MarketPrices variant={variant} markets={markets.data} explicit={stored.data} storeCurrency={currency} />
      )}
      {shown?.length === 0 && <p>No explicit prices: every market converts the {currency} price.</p>}
      {shown?.map((row, i) => (
        <fieldset key={row.key} class="fields price-row">
          <legend class="visually-hidden">Price {i + 1}</legend>
          <Field
            label="Currency"
            list="market-currencies"
            autocapitalize="characters"
            value={row.currency}
            error={error(i, 'currency')}
            onInput={(e) => change(i, { currency: e.currentTarget.value })}
          />
          <Field
            label={`Price${row.currency ? ` (${row.currency.toUpperCase()})` : ''}`}
            inputMode="decimal"
            value={row.price}
            error={error(i, 'price')}
            onInput={(e) => change(i, { price: e.currentTarget.value })}
          />
          <Field
            label={`Compare-at price${row.currency ? ` (${row.currency.toUpperCase()})` : ''}`}
            inputMode="decimal"
            hint="Blank: none"
            value={row.compare_at_price}
            error={error(i, 'compare_at_price')}
            onInput={(e) => change(i, { compare_at_price: e.currentTarget.value })}
          />
          <div class="field action">
            <button type="button" class="secondary" onClick={() => setRows((shown ?? []).filter((_, j) => j !== i))}>
              Remove {row.currency.toUpperCase() || `price ${i + 1}`}
            </button>
          </div>
        </fieldset>
      ))}
      <datalist id="market-currencies">
        {otherCurrencies.map((c) => (
          <option key={c} value={c} />
        ))}
      </datalist>
      <ErrorMessage
        problem={problemBeyondFields(
          write.problem,
          (shown ?? []).map((_, i) => `prices[${i}]`),
        )}
      />
      <StatusMessage text={write.done} />
      <div class="row">
        <button
          type="button"
          class="secondary"
          disabled={shown === undefined}
          onClick={() =>
            setRows([
              ...(shown ?? []),
              priceText({ currency: otherCurrencies[0] ?? '', price: '', compare_at_price: null }),
            ])
          }
        >
          Add a price in another currency
        </button>
        <button type="submit" disabled={write.busy || shown === undefined || rows === undefined}>
          Save prices
        </button>
      </div>
    </form>
  );
}

import { ok } from '../../../api/client';
import { fieldError, type Problem } from '../../../shared/problem';
import { Field } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { useLoaded } from '../../use-loaded';

/** A rate's amounts in one other currency as typed. */
export interface RatePriceText {
  /** Keeps a row's inputs its own when a row above it is removed. */
  key: number;
  currency: string;
  base_rate: string;
  per_kg_rate: string;
}

let nextKey = 0;
export const ratePriceText = (p: { currency: string; base_rate: string; per_kg_rate: string }): RatePriceText => ({
  key: nextKey++,
  ...p,
});

/** The rows as the API takes them (`prices`, replaced whole). */
export const ratePricesBody = (rows: readonly RatePriceText[]) =>
  rows.map((row) => ({
    currency: row.currency.trim().toUpperCase(),
    base_rate: row.base_rate.trim(),
    per_kg_rate: row.per_kg_rate.trim() === '' ? '0' : row.per_kg_rate.trim(),
  }));

/**
 * A shipping rate's amounts in other currencies than the store's (decision 0037): a row per currency, added and
 * removed here, saved with the rate. Errors shown beside the row and field they name (`prices[1].base_rate`).
 */
export function RatePricesFields(props: {
  id: string;
  rows: RatePriceText[];
  onChange: (rows: RatePriceText[]) => void;
  problem: Problem | undefined;
}) {
  const { api, currency } = useDashboard();
  const markets = useLoaded(() => ok(api.GET('/market/dashboard/api/markets/')), 'markets');
  const { rows } = props;
  const others = [...new Set((markets.data ?? []).filter((m) => !m.is_default).map((m) => m.currency))].filter(
    (c) => !rows.some((row) => row.currency.trim().toUpperCase() === c),
  );
  const change = (i: number, next: Partial<RatePriceText>) =>
    props.onChange(rows.map((row, j) => (j === i ? { ...row, ...next } : row)));
  const error = (i: number, field: string) => fieldError(props.problem, `prices[${i}].${field}`);
  const money = { inputMode: 'decimal' as const, autoComplete: 'off' };
  const code = (row: RatePriceText) => row.currency.trim().toUpperCase();

  return (
    <fieldset class="currency-amounts">
      <legend>In other currencies</legend>
      <p class="muted">
        A market in one of these currencies charges these amounts; in any other, the {currency} amounts converted at its
        rate.
      </p>
      {rows.length === 0 && <p>None: every market converts the {currency} rate.</p>}
      {rows.map((row, i) => (
        <fieldset key={row.key} class="fields price-row">
          <legend class="visually-hidden">Currency {i + 1}</legend>
          <Field
            label="Currency"
            list={`${props.id}-currencies`}
            autocapitalize="characters"
            maxLength={3}
            value={row.currency}
            error={error(i, 'currency')}
            onInput={(e) => change(i, { currency: e.currentTarget.value })}
          />
          <Field
            label={`Base rate${code(row) ? ` (${code(row)})` : ''}`}
            {...money}
            value={row.base_rate}
            error={error(i, 'base_rate')}
            onInput={(e) => change(i, { base_rate: e.currentTarget.value })}
          />
          <Field
            label={`Per kg${code(row) ? ` (${code(row)})` : ''}`}
            {...money}
            hint="Blank: 0"
            value={row.per_kg_rate}
            error={error(i, 'per_kg_rate')}
            onInput={(e) => change(i, { per_kg_rate: e.currentTarget.value })}
          />
          <div class="field action">
            <button type="button" class="secondary" onClick={() => props.onChange(rows.filter((_, j) => j !== i))}>
              Remove {code(row) || `currency ${i + 1}`}
            </button>
          </div>
        </fieldset>
      ))}
      <datalist id={`${props.id}-currencies`}>
        {others.map((c) => (
          <option key={c} value={c} />
        ))}
      </datalist>
      <button
        type="button"
        class="secondary"
        onClick={() =>
          props.onChange([...rows, ratePriceText({ currency: others[0] ?? '', base_rate: '', per_kg_rate: '' })])
        }
      >
        Add a currency
      </button>
    </fieldset>
  );
}

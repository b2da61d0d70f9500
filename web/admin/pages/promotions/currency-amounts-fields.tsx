import { perCurrencyName } from '../../../../src/pricing/promotions/kind-fields.js';
import { ok } from '../../../api/client';
import { fieldError, type Problem } from '../../../shared/problem';
import { Field } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { useLoaded } from '../../use-loaded';
import { type CurrencyAmountRow, currencyAmountRow } from './part-draft';

/**
 * A money field's amounts in other currencies (decision 0037): a row per currency, the API's error beside the row it
 * names (`action.amounts.EUR`). An order in a currency without one does not get the promotion.
 */
export function CurrencyAmountsFields(props: {
  /** How the API names the money field (`action.amount`, `conditions[0].amount`). */
  at: string;
  name: string;
  label: string;
  rows: CurrencyAmountRow[];
  onChange: (rows: CurrencyAmountRow[]) => void;
  problem: Problem | undefined;
}) {
  const { api, currency } = useDashboard();
  const markets = useLoaded(() => ok(api.GET('/market/dashboard/api/markets/')), 'markets');
  const { rows } = props;
  const others = [...new Set((markets.data ?? []).filter((m) => !m.is_default).map((m) => m.currency))].filter(
    (c) => !rows.some((row) => row.currency.trim().toUpperCase() === c),
  );
  const path = `${props.at}.${perCurrencyName(props.name)}`;
  const id = path.replace(/[^A-Za-z0-9]/g, '-');
  const change = (i: number, next: Partial<CurrencyAmountRow>) =>
    props.onChange(rows.map((row, j) => (j === i ? { ...row, ...next } : row)));
  const code = (row: CurrencyAmountRow) => row.currency.trim().toUpperCase();

  return (
    <fieldset class="currency-amounts">
      <legend>{props.label} in other currencies</legend>
      <p class="muted">
        An order in a currency without an amount here does not get this promotion; {currency} orders get the amount
        above.
      </p>
      {rows.map((row, i) => (
        <fieldset key={row.key} class="fields price-row">
          <legend class="visually-hidden">Currency {i + 1}</legend>
          <Field
            label="Currency"
            list={`${id}-currencies`}
            autocapitalize="characters"
            maxLength={3}
            value={row.currency}
            error={fieldError(props.problem, `${path}.${row.currency.trim()}`)}
            onInput={(e) => change(i, { currency: e.currentTarget.value })}
          />
          <Field
            label={`Amount${code(row) ? ` (${code(row)})` : ''}`}
            inputMode="decimal"
            autoComplete="off"
            value={row.amount}
            onInput={(e) => change(i, { amount: e.currentTarget.value })}
          />
          <div class="field action">
            <button type="button" class="secondary" onClick={() => props.onChange(rows.filter((_, j) => j !== i))}>
              Remove {code(row) || `currency ${i + 1}`}
            </button>
          </div>
        </fieldset>
      ))}
      <datalist id={`${id}-currencies`}>
        {others.map((c) => (
          <option key={c} value={c} />
        ))}
      </datalist>
      <button
        type="button"
        class="secondary"
        onClick={() => props.onChange([...rows, currencyAmountRow(others[0] ?? '', '')])}
      >
        Add an amount in another currency
      </button>
    </fieldset>
  );
}

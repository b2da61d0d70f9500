import type { ComponentChildren } from 'preact';
import { ok } from '../../../api/client';
import { Field } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { useLoaded } from '../../use-loaded';

/** One currency's amounts as typed: its currency and a text per amount field. */
export interface CurrencyRow {
  /** Keeps a row's inputs its own when a row above it is removed. */
  key: number;
  currency: string;
}

/** The currency a row names, as the API takes it. */
export const currencyCode = (row: { currency: string }): string => row.currency.trim().toUpperCase();

/**
 * Amounts in other currencies than the store's (decision 0037), a row per currency: its currency (offered from the
 * markets' currencies not yet given a row) and its amounts, each row removable, a row added at the end. What the
 * amounts are, what they mean and where the API's errors go are the caller's.
 */
export function CurrencyAmountRows<A extends string, R extends CurrencyRow & Record<A, string>>(props: {
  /** Prefix of the ids inside (the currencies' datalist). */
  id: string;
  legend: string;
  /** What the amounts mean, under the legend. */
  note: ComponentChildren;
  /** Shown when there is no row. */
  empty?: ComponentChildren;
  /** A row's amount inputs, in order: the label is followed by the row's currency. */
  amounts: readonly { name: A; label: string; hint?: string }[];
  rows: R[];
  onChange: (rows: R[]) => void;
  /** The API's error for a row's currency or one of its amounts. */
  error: (field: 'currency' | A, row: R, index: number) => string | undefined;
  /** A new row in `currency`, its amounts blank. */
  blankRow: (currency: string) => R;
  /** The add button's words. */
  add: string;
}) {
  const { api } = useDashboard();
  const markets = useLoaded(() => ok(api.GET('/market/dashboard/api/markets/')), 'markets');
  const { rows } = props;
  const others = [...new Set((markets.data ?? []).filter((m) => !m.is_default).map((m) => m.currency))].filter(
    (c) => !rows.some((row) => currencyCode(row) === c),
  );
  const change = (i: number, field: 'currency' | A, value: string) =>
    props.onChange(rows.map((row, j) => (j === i ? { ...row, [field]: value } : row)));

  return (
    <fieldset class="currency-amounts">
      <legend>{props.legend}</legend>
      <p class="muted">{props.note}</p>
      {rows.length === 0 && props.empty}
      {rows.map((row, i) => (
        <fieldset key={row.key} class="fields price-row">
          <legend class="visually-hidden">Currency {i + 1}</legend>
          <Field
            label="Currency"
            list={`${props.id}-currencies`}
            autocapitalize="characters"
            maxLength={3}
            value={row.currency}
            error={props.error('currency', row, i)}
            onInput={(e) => change(i, 'currency', e.currentTarget.value)}
          />
          {props.amounts.map((amount) => (
            <Field
              key={amount.name}
              label={`${amount.label}${currencyCode(row) ? ` (${currencyCode(row)})` : ''}`}
              inputMode="decimal"
              autoComplete="off"
              {...(amount.hint === undefined ? {} : { hint: amount.hint })}
              value={row[amount.name]}
              error={props.error(amount.name, row, i)}
              onInput={(e) => change(i, amount.name, e.currentTarget.value)}
            />
          ))}
          <div class="field action">
            <button type="button" class="secondary" onClick={() => props.onChange(rows.filter((_, j) => j !== i))}>
              Remove {currencyCode(row) || `currency ${i + 1}`}
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
        onClick={() => props.onChange([...rows, props.blankRow(others[0] ?? '')])}
      >
        {props.add}
      </button>
    </fieldset>
  );
}

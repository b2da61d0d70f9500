import { fieldError, type Problem } from '../../../shared/problem';
import { useDashboard } from '../../context';
import { CurrencyAmountRows, currencyCode } from '../common/currency-amount-rows';

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
    currency: currencyCode(row),
    base_rate: row.base_rate.trim(),
    per_kg_rate: row.per_kg_rate.trim() === '' ? '0' : row.per_kg_rate.trim(),
  }));

const RATE_AMOUNTS = [
  { name: 'base_rate', label: 'Base rate' },
  { name: 'per_kg_rate', label: 'Per kg', hint: 'Blank: 0' },
] as const;

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
  const { currency } = useDashboard();
  return (
    <CurrencyAmountRows
      id={props.id}
      legend="In other currencies"
      note={
        <>
          A market in one of these currencies charges these amounts; in any other, the {currency} amounts converted at
          its rate.
        </>
      }
      empty={<p>None: every market converts the {currency} rate.</p>}
      amounts={RATE_AMOUNTS}
      rows={props.rows}
      onChange={props.onChange}
      error={(field, _row, i) => fieldError(props.problem, `prices[${i}].${field}`)}
      blankRow={(code) => ratePriceText({ currency: code, base_rate: '', per_kg_rate: '' })}
      add="Add a currency"
    />
  );
}

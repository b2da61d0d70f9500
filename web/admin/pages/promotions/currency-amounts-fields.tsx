import { perCurrencyName } from '../../../../src/pricing/promotions/kind-fields.js';
import { fieldError, type Problem } from '../../../shared/problem';
import { useDashboard } from '../../context';
import { CurrencyAmountRows } from '../common/currency-amount-rows';
import { type CurrencyAmountRow, currencyAmountRow } from './part-draft';

const AMOUNT = [{ name: 'amount', label: 'Amount' }] as const;

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
  const { currency } = useDashboard();
  const path = `${props.at}.${perCurrencyName(props.name)}`;
  return (
    <CurrencyAmountRows
      id={path.replace(/[^A-Za-z0-9]/g, '-')}
      legend={`${props.label} in other currencies`}
      note={
        <>
          An order in a currency without an amount here does not get this promotion; {currency} orders get the amount
          above.
        </>
      }
      amounts={AMOUNT}
      rows={props.rows}
      onChange={props.onChange}
      error={(field, row) =>
        field === 'currency' ? fieldError(props.problem, `${path}.${row.currency.trim()}`) : undefined
      }
      blankRow={(code) => currencyAmountRow(code, '')}
      add="Add an amount in another currency"
    />
  );
}

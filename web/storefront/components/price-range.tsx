import { amountRange } from '../../shared/money';
import { Money } from '../../shared/ui';

/** "25.00 USD" or "25.00 – 27.00 USD" for a product's variants. */
export function PriceRange(props: { prices: string[]; currency: string }) {
  const range = amountRange(props.prices);
  if (range === undefined) return null;
  if (range.low === range.high) return <Money amount={range.low} currency={props.currency} />;
  return (
    <span class="money">
      {range.low} – {range.high} {props.currency}
    </span>
  );
}

import { Money } from '../../shared/ui';
import { availabilityText, type Variant } from '../availability';

/** The product's variants as radio buttons named by the variant, each with its price and whether it is in stock. */
export function VariantChoice(props: {
  variants: Variant[];
  /** What the choice is of: the product's option ("Size"), or "Option". */
  legend: string;
  currency: string;
  chosen: number | undefined;
  onChoose: (variantId: number) => void;
}) {
  return (
    <fieldset class="choices">
      <legend>{props.legend}</legend>
      {props.variants.map((v) => (
        <label key={v.id} class="choice">
          <input
            type="radio"
            name="variant"
            value={v.id}
            checked={v.id === props.chosen}
            onChange={() => props.onChoose(v.id)}
          />
          <span>{v.name}</span>
          <Money amount={v.price} currency={props.currency} />
          <span class={v.available ? 'muted' : 'error'}>{availabilityText(v)}</span>
        </label>
      ))}
    </fieldset>
  );
}

import { type OptionProduct, valueChoices, variantFor } from '../option-choice';

const reasonOf = { available: '', 'sold-out': 'sold out', missing: 'not available' } as const;

/**
 * One group of radio buttons per option (a fieldset with its legend). A value that makes, with the values chosen
 * for the other options, a combination that does not exist or is sold out is disabled, the reason beside it.
 */
export function OptionPicker(props: {
  product: OptionProduct;
  chosen: number | undefined;
  onChoose: (variantId: number) => void;
}) {
  const { product, chosen } = props;
  const choices = valueChoices(product, chosen);
  const chosenValues = product.variants.find((v) => v.id === chosen)?.options ?? {};
  return (
    <>
      {product.options.map((option, i) => (
        <fieldset key={option.name} class="choices options">
          <legend>{option.name}</legend>
          {(choices.get(option.name) ?? []).map((choice) => {
            const checked = chosenValues[option.name] === choice.value;
            const disabled = !checked && choice.state !== 'available';
            const reasonId = `option-${i}-${choice.value}-reason`.replace(/\s+/g, '-');
            return (
              <label key={choice.value} class={`choice${disabled ? ' unavailable' : ''}`}>
                <input
                  type="radio"
                  name={`option-${i}`}
                  value={choice.value}
                  checked={checked}
                  disabled={disabled}
                  aria-describedby={choice.state === 'available' ? undefined : reasonId}
                  onChange={() => {
                    const id = variantFor(product, { chosenId: chosen, option: option.name, value: choice.value });
                    if (id !== undefined) props.onChoose(id);
                  }}
                />
                <span>{choice.value}</span>
                {choice.state !== 'available' && (
                  <span id={reasonId} class="muted">
                    {reasonOf[choice.state]}
                  </span>
                )}
              </label>
            );
          })}
        </fieldset>
      ))}
    </>
  );
}

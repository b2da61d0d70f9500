import { useState } from 'preact/hooks';
import { ok } from '../../../api/client';
import { fieldError } from '../../../shared/problem';
import { ErrorMessage, SelectField } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { StatusMessage } from '../common/form-parts';
import { useWrite } from '../../use-write';
import { emptyVariantDraft, type Product, variantBody } from './variant-draft';
import { VariantFields } from './variant-fields';

/** The stand-in option of a product made without options (decision 0036): its value is the variant's name. */
const STAND_IN_OPTION = 'Title';

/** The options a new variant chooses a value of: none for a product whose only option is the stand-in "Title". */
export function optionsToChoose(product: Pick<Product, 'options'>): Product['options'] {
  const only = product.options.length === 1 ? product.options[0] : undefined;
  return only?.name === STAND_IN_OPTION ? [] : product.options;
}

/**
 * The form that adds a variant to a product: its fields and, when the product has options, a value of each (a select of
 * the option's values); the API's refusal of a value shows beside its select.
 */
export function NewVariant(props: { product: Product; onAdded: () => void }) {
  const { api } = useDashboard();
  const [draft, setDraft] = useState(emptyVariantDraft);
  const [chosen, setChosen] = useState<Record<string, string>>({});
  const write = useWrite();
  const options = optionsToChoose(props.product);

  const add = (event: Event) => {
    event.preventDefault();
    // Only the values chosen: an option left unchosen is refused by the API beside its select ("is required").
    const combination = Object.fromEntries(
      options.flatMap((o) => (chosen[o.name] ? [[o.name, chosen[o.name] as string]] : [])),
    );
    void write
      .run(
        () =>
          ok(
            api.POST('/product/dashboard/api/products/{id}/variants/', {
              params: { path: { id: props.product.id } },
              body: options.length > 0 ? { ...variantBody(draft), options: combination } : variantBody(draft),
            }),
          ),
        (variant) => `Variant ${variant.name} added.`,
      )
      .then((added) => {
        if (!added) return;
        setDraft(emptyVariantDraft);
        setChosen({});
        props.onAdded();
      });
  };

  return (
    <section aria-labelledby="new-variant-heading">
      <h2 id="new-variant-heading">Add a variant</h2>
      <form onSubmit={add} noValidate>
        {options.length > 0 && (
          <div class="fields">
            {options.map((option) => (
              <SelectField
                key={option.name}
                label={option.name}
                name={`option-${option.name}`}
                required
                value={chosen[option.name] ?? ''}
                error={fieldError(write.problem, `options.${option.name}`)}
                onChange={(e) => setChosen({ ...chosen, [option.name]: e.currentTarget.value })}
              >
                <option value="">Choose…</option>
                {option.values.map((value) => (
                  <option key={value} value={value}>
                    {value}
                  </option>
                ))}
              </SelectField>
            ))}
          </div>
        )}
        <VariantFields draft={draft} onChange={setDraft} problem={write.problem} />
        <ErrorMessage problem={write.problem} />
        <StatusMessage text={write.done} />
        <button type="submit" disabled={write.busy}>
          Add variant
        </button>
      </form>
    </section>
  );
}

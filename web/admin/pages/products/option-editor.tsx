import { useState } from 'preact/hooks';
import { ok } from '../../../api/client';
import { fieldError } from '../../../shared/problem';
import { ErrorMessage, Field } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { useWrite } from '../../use-write';
import { StatusMessage } from '../common/form-parts';
import { optionRenames } from './option-renames';
import type { Product } from './variant-draft';

/** Most options a product has (src/catalog/options.rules.ts OPTION_LIMITS). */
const MAX_OPTIONS = 3;

interface OptionDraft {
  name: string;
  /** Its values as typed: a comma-separated list. */
  values: string;
  /** The option as saved, which the draft edits; none for an option added here. */
  saved?: { name: string; values: string[] };
}

const draftsOf = (product: Product): OptionDraft[] =>
  product.options.map((o) => ({ name: o.name, values: o.values.join(', '), saved: o }));
const valuesOf = (text: string) =>
  text
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');

/**
 * A product's options (Size, Colour) with their values as comma lists: saving them moves the variants onto them
 * (PUT options), then "Generate variants" makes the combinations still missing with a price, stock and SKU pattern.
 */
export function OptionEditor(props: { product: Product; onChanged: () => void }) {
  const { api } = useDashboard();
  const id = props.product.id;
  const [drafts, setDrafts] = useState<OptionDraft[]>(() => draftsOf(props.product));
  const [price, setPrice] = useState('');
  const [stock, setStock] = useState('0');
  const [skuPattern, setSkuPattern] = useState('');
  const save = useWrite();
  const generate = useWrite();
  const change = (i: number, fields: Partial<OptionDraft>) =>
    setDrafts(drafts.map((d, j) => (j === i ? { ...d, ...fields } : d)));

  const saveOptions = (event: Event) => {
    event.preventDefault();
    const options = drafts.map((d) => {
      const values = valuesOf(d.values);
      return { name: d.name, values, ...optionRenames({ saved: d.saved, name: d.name, values }) };
    });
    void save
      .run(
        () =>
          ok(api.PUT('/product/dashboard/api/products/{id}/options/', { params: { path: { id } }, body: { options } })),
        (product) => `Options saved: ${product.options.map((o) => o.name).join(', ')}.`,
      )
      .then((product) => {
        if (!product) return;
        setDrafts(draftsOf(product));
        props.onChanged();
      });
  };

  const generateVariants = (event: Event) => {
    event.preventDefault();
    const before = props.product.variants.length;
    void generate
      .run(
        () =>
          ok(
            api.POST('/product/dashboard/api/products/{id}/variants/generate/', {
              params: { path: { id } },
              body: {
                price,
                stock: Number(stock) || 0,
                ...(skuPattern.trim() === '' ? {} : { sku_pattern: skuPattern.trim() }),
              },
            }),
          ),
        (product) => `${product.variants.length - before} variants made.`,
      )
      .then((product) => product && props.onChanged());
  };

  return (
    <section aria-labelledby="options-heading">
      <h2 id="options-heading">Options</h2>
      <p class="muted">
        Variants are the combinations of the options’ values. An option or a value renamed in its place keeps its
        variants; a value removed archives the variants that have it.
      </p>
      <form onSubmit={saveOptions} noValidate>
        {drafts.map((draft, i) => (
          <fieldset key={i} class="pair">
            <legend class="visually-hidden">Option {i + 1}</legend>
            <Field
              label={`Option ${i + 1} name`}
              value={draft.name}
              maxLength={50}
              error={fieldError(save.problem, `options[${i}].name`)}
              onInput={(e) => change(i, { name: e.currentTarget.value })}
            />
            <Field
              label={`Option ${i + 1} values`}
              hint="Separated by commas: S, M, L"
              value={draft.values}
              error={fieldError(save.problem, `options[${i}].values`)}
              onInput={(e) => change(i, { values: e.currentTarget.value })}
            />
            <button type="button" class="secondary" onClick={() => setDrafts(drafts.filter((_, j) => j !== i))}>
              Remove option {i + 1}
            </button>
          </fieldset>
        ))}
        <ErrorMessage problem={save.problem} />
        <StatusMessage text={save.done} />
        <p>
          <button
            type="button"
            class="secondary"
            disabled={drafts.length >= MAX_OPTIONS}
            onClick={() => setDrafts([...drafts, { name: '', values: '' }])}
          >
            Add option
          </button>{' '}
          <button type="submit" disabled={save.busy}>
            Save options
          </button>
        </p>
      </form>
      <form onSubmit={generateVariants} noValidate>
        <h3>Generate the missing variants</h3>
        <div class="pair">
          <Field
            label="Price"
            inputMode="decimal"
            value={price}
            error={fieldError(generate.problem, 'price')}
            onInput={(e) => setPrice(e.currentTarget.value)}
          />
          <Field
            label="Stock"
            type="number"
            min={0}
            value={stock}
            error={fieldError(generate.problem, 'stock')}
            onInput={(e) => setStock(e.currentTarget.value)}
          />
          <Field
            label="SKU pattern"
            hint="Option names in braces: HOODIE-{Size}-{Colour}"
            value={skuPattern}
            error={fieldError(generate.problem, 'sku_pattern')}
            onInput={(e) => setSkuPattern(e.currentTarget.value)}
          />
        </div>
        <ErrorMessage problem={generate.problem} />
        <StatusMessage text={generate.done} />
        <button type="submit" disabled={generate.busy}>
          Generate variants
        </button>
      </form>
    </section>
  );
}

import { useState } from 'preact/hooks';
import { ok } from '../../../api/client';
import { ErrorMessage } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { StatusMessage } from '../common/form-parts';
import { useWrite } from '../../use-write';
import { emptyVariantDraft, variantBody } from './variant-draft';
import { VariantFields } from './variant-fields';

/** The form that adds a variant to a product. */
export function NewVariant(props: { productId: number; onAdded: () => void }) {
  const { api } = useDashboard();
  const [draft, setDraft] = useState(emptyVariantDraft);
  const write = useWrite();

  const add = (event: Event) => {
    event.preventDefault();
    void write
      .run(
        () =>
          ok(
            api.POST('/product/dashboard/api/products/{id}/variants/', {
              params: { path: { id: props.productId } },
              body: variantBody(draft),
            }),
          ),
        (variant) => `Variant ${variant.name} added.`,
      )
      .then((added) => {
        if (!added) return;
        setDraft(emptyVariantDraft);
        props.onAdded();
      });
  };

  return (
    <section aria-labelledby="new-variant-heading">
      <h2 id="new-variant-heading">Add a variant</h2>
      <form onSubmit={add} noValidate>
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

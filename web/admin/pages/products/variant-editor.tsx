import { useEffect, useRef, useState } from 'preact/hooks';
import { ok } from '../../../api/client';
import { ErrorMessage } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { StatusMessage } from '../common/form-parts';
import { useWrite } from '../../use-write';
import { type Variant, variantBody, variantDraft } from './variant-draft';
import { VariantFields } from './variant-fields';

/** One variant's form: save its fields, archive or restore it. */
export function VariantEditor(props: { variant: Variant; onChanged: () => void; onClose: () => void }) {
  const { variant, onChanged } = props;
  const { api } = useDashboard();
  const [draft, setDraft] = useState(() => variantDraft(variant));
  const write = useWrite();
  const heading = useRef<HTMLHeadingElement>(null);
  const path = { params: { path: { id: variant.id } } };
  useEffect(() => heading.current?.focus(), []);

  /** Writes, then has the product's page show the variant as it is now. */
  const change = (what: () => Promise<Variant>, said: string) => {
    void write.run(what, () => said).then((changed) => changed && onChanged());
  };
  const save = (event: Event) => {
    event.preventDefault();
    change(
      () => ok(api.PATCH('/product/dashboard/api/variants/{id}/', { ...path, body: variantBody(draft) })),
      `Variant ${draft.name} saved.`,
    );
  };
  const archive = () =>
    change(
      () => ok(api.DELETE('/product/dashboard/api/variants/{id}/', path)).then(() => variant),
      `Variant ${variant.name} archived.`,
    );
  const restore = () =>
    change(
      () => ok(api.PATCH('/product/dashboard/api/variants/{id}/', { ...path, body: { archived: false } })),
      `Variant ${variant.name} restored.`,
    );

  return (
    <form class="panel" onSubmit={save} noValidate aria-labelledby={`variant-${variant.id}-heading`}>
      <h3 id={`variant-${variant.id}-heading`} tabIndex={-1} ref={heading}>
        Edit variant {variant.name}
      </h3>
      <VariantFields draft={draft} onChange={setDraft} problem={write.problem} />
      <ErrorMessage problem={write.problem} />
      <StatusMessage text={write.done} />
      <div class="row">
        <button type="submit" disabled={write.busy}>
          Save variant
        </button>
        {variant.archived ? (
          <button type="button" class="secondary" disabled={write.busy} onClick={restore}>
            Restore variant
          </button>
        ) : (
          <button type="button" class="secondary" disabled={write.busy} onClick={archive}>
            Archive variant
          </button>
        )}
        <button type="button" class="secondary" onClick={props.onClose}>
          Close
        </button>
      </div>
    </form>
  );
}

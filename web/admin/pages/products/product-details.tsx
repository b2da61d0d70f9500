import { useState } from 'preact/hooks';
import { ok } from '../../../api/client';
import { fieldError } from '../../../shared/problem';
import { ErrorMessage, Field } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { StatusMessage, TextAreaField } from '../common/form-parts';
import { TaxClassSelect } from '../common/tax-class-select';
import { useWrite } from '../../use-write';
import type { Product } from './variant-draft';

/** A product's own fields, saved together, and its archive or restore. */
export function ProductDetails(props: { product: Product; onSaved: (product: Product) => void }) {
  const { product, onSaved } = props;
  const { api } = useDashboard();
  const [name, setName] = useState(product.name);
  const [description, setDescription] = useState(product.description);
  const [taxClassId, setTaxClassId] = useState(product.tax_class_id);
  const write = useWrite();
  const path = { params: { path: { id: product.id } } };

  /** Writes, then shows the product as the API answered. */
  const change = (what: () => Promise<Product>, said: string) =>
    void write.run(what, () => said).then((changed) => changed && onSaved(changed));
  const save = (event: Event) => {
    event.preventDefault();
    const body = { name, description, tax_class_id: taxClassId };
    change(() => ok(api.PATCH('/product/dashboard/api/products/{id}/', { ...path, body })), 'Product saved.');
  };
  const archive = () =>
    change(
      () =>
        ok(api.DELETE('/product/dashboard/api/products/{id}/', path)).then(() =>
          ok(api.GET('/product/dashboard/api/products/{id}/', path)),
        ),
      'Product archived: it is gone from the storefront and can no longer be bought.',
    );
  const restore = () =>
    change(
      () => ok(api.PATCH('/product/dashboard/api/products/{id}/', { ...path, body: { archived: false } })),
      'Product restored.',
    );

  return (
    <section aria-labelledby="product-heading">
      <h2 id="product-heading">Product</h2>
      <p class="muted">
        Id {product.id} · {product.archived ? 'Archived' : 'Active'}
      </p>
      <form onSubmit={save} noValidate>
        <Field
          label="Product name"
          name="name"
          required
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
          error={fieldError(write.problem, 'name')}
        />
        <TextAreaField
          label="Description"
          name="description"
          value={description}
          onInput={(e) => setDescription(e.currentTarget.value)}
          error={fieldError(write.problem, 'description')}
        />
        <TaxClassSelect value={taxClassId} onChange={setTaxClassId} error={fieldError(write.problem, 'tax_class_id')} />
        <ErrorMessage problem={write.problem} />
        <StatusMessage text={write.done} />
        <div class="row">
          <button type="submit" disabled={write.busy}>
            Save product
          </button>
          {product.archived ? (
            <button type="button" class="secondary" disabled={write.busy} onClick={restore}>
              Restore product
            </button>
          ) : (
            <button type="button" class="secondary" disabled={write.busy} onClick={archive}>
              Archive product
            </button>
          )}
        </div>
      </form>
    </section>
  );
}

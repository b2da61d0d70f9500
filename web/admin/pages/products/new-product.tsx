import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { ok } from '../../../api/client';
import { fieldError } from '../../../shared/problem';
import { ErrorMessage, Field } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { TextAreaField } from '../common/form-parts';
import { useWrite } from '../../use-write';
import { TaxClassSelect } from '../common/tax-class-select';
import { emptyVariantDraft, variantBody } from './variant-draft';
import { VariantFields } from './variant-fields';

/** The form for a new product with its first variant; on success, the product's page. */
export function NewProduct() {
  const { api } = useDashboard();
  const { route } = useLocation();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [taxClassId, setTaxClassId] = useState<number | null>(null);
  const [variant, setVariant] = useState(emptyVariantDraft);
  const write = useWrite();

  async function create(event: Event) {
    event.preventDefault();
    const product = await write.run(
      () =>
        ok(
          api.POST('/product/dashboard/api/products/', {
            body: { name, description, tax_class_id: taxClassId, variants: [variantBody(variant, 'variants[0].')] },
          }),
        ),
      (created) => `Product ${created.name} created.`,
    );
    if (product) route(`/admin/products/${product.id}?created=1`);
  }

  return (
    <section aria-labelledby="new-product-heading">
      <h2 id="new-product-heading">New product</h2>
      <form onSubmit={create} noValidate>
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
        <h3>First variant</h3>
        <VariantFields draft={variant} onChange={setVariant} problem={write.problem} prefix="variants[0]." />
        <ErrorMessage problem={write.problem} />
        <button type="submit" disabled={write.busy}>
          Create product
        </button>
      </form>
    </section>
  );
}

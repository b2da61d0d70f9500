import { useState } from 'preact/hooks';
import { ok } from '../../../api/client';
import { categoryAncestry } from '../../../shared/category-tree';
import { fieldError, problemBeyondFields } from '../../../shared/problem';
import { ErrorMessage, Field } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { useLoaded } from '../../use-loaded';
import { useWrite } from '../../use-write';
import { CheckboxField, StatusMessage } from '../common/form-parts';
import type { Product } from '../products/variant-draft';

const FIELDS = ['handle', 'seo_title', 'seo_description', 'category_ids'];

function toggled(list: number[], id: number, on: boolean): number[] {
  return on ? [...list.filter((x) => x !== id), id] : list.filter((x) => x !== id);
}

/**
 * A product's place in the shop, on its dashboard page: its handle (its address, `/p/<handle>`), SEO title and
 * description, its categories (the product's `category_ids`) and the collections it is in (each collection's list:
 * added last, or taken out). Saving sends the product's fields, then each collection that changed.
 */
export function ProductPlacement(props: { product: Product; onSaved: (product: Product) => void }) {
  const { api } = useDashboard();
  const { product } = props;
  const choices = useLoaded(
    () =>
      Promise.all([
        ok(api.GET('/product/dashboard/api/categories/')),
        ok(api.GET('/product/dashboard/api/collections/')),
      ]),
    `placement-${product.id}`,
  );
  const [handle, setHandle] = useState(product.handle);
  const [seoTitle, setSeoTitle] = useState(product.seo_title ?? '');
  const [seoDescription, setSeoDescription] = useState(product.seo_description ?? '');
  const [categoryIds, setCategoryIds] = useState(product.category_ids);
  const [collectionIds, setCollectionIds] = useState<number[]>();
  const write = useWrite();
  const [categories, collections] = choices.data ?? [[], []];
  const inCollections = collectionIds ?? collections.filter((c) => c.product_ids.includes(product.id)).map((c) => c.id);

  const submit = async (event: Event) => {
    event.preventDefault();
    const saved = await write.run(
      async () => {
        const updated = await ok(
          api.PATCH('/product/dashboard/api/products/{id}/', {
            params: { path: { id: product.id } },
            body: {
              handle: handle.trim(),
              seo_title: seoTitle.trim() || null,
              seo_description: seoDescription.trim() || null,
              category_ids: categoryIds,
            },
          }),
        );
        for (const collection of collections) {
          const was = collection.product_ids.includes(product.id);
          const now = inCollections.includes(collection.id);
          const path = { id: collection.id };
          if (now && !was) {
            await ok(
              api.POST('/product/dashboard/api/collections/{id}/products/', {
                params: { path },
                body: { product_id: product.id },
              }),
            );
          }
          if (was && !now) {
            await ok(
              api.DELETE('/product/dashboard/api/collections/{id}/products/{productId}/', {
                params: { path: { ...path, productId: product.id } },
              }),
            );
          }
        }
        return updated;
      },
      (p) => `Saved: ${p.name} is at /p/${p.handle}, in ${p.category_ids.length} categories.`,
    );
    if (!saved) return;
    setCollectionIds(undefined);
    await choices.reload();
    props.onSaved(saved);
  };

  return (
    <form class="panel" aria-label="In the shop" onSubmit={submit}>
      <h2>In the shop</h2>
      <div class="fields">
        <Field
          label="Handle"
          hint="The product's address in the shop: /p/<handle>."
          required
          value={handle}
          error={fieldError(write.problem, 'handle')}
          onInput={(e) => setHandle(e.currentTarget.value)}
        />
        <Field
          label="SEO title"
          hint="Empty: the name."
          maxLength={200}
          value={seoTitle}
          error={fieldError(write.problem, 'seo_title')}
          onInput={(e) => setSeoTitle(e.currentTarget.value)}
        />
        <Field
          label="SEO description"
          hint="Empty: the start of the description."
          maxLength={500}
          value={seoDescription}
          error={fieldError(write.problem, 'seo_description')}
          onInput={(e) => setSeoDescription(e.currentTarget.value)}
        />
      </div>
      <ErrorMessage problem={choices.problem} />
      <fieldset class="field">
        <legend>Categories</legend>
        {categories.length === 0 && <small class="hint">No categories yet: create them under Categories.</small>}
        {categories.map((category) => (
          <CheckboxField
            key={category.id}
            label={categoryAncestry(categories, category.id)
              .map((c) => c.name)
              .join(' › ')}
            checked={categoryIds.includes(category.id)}
            onChange={(e) => setCategoryIds(toggled(categoryIds, category.id, e.currentTarget.checked))}
          />
        ))}
        {fieldError(write.problem, 'category_ids') && (
          <small class="field-error">{fieldError(write.problem, 'category_ids')}</small>
        )}
      </fieldset>
      <fieldset class="field">
        <legend>Collections</legend>
        {collections.length === 0 && <small class="hint">No collections yet: create them under Collections.</small>}
        {collections.map((collection) => (
          <CheckboxField
            key={collection.id}
            label={collection.name}
            checked={inCollections.includes(collection.id)}
            onChange={(e) => setCollectionIds(toggled(inCollections, collection.id, e.currentTarget.checked))}
          />
        ))}
      </fieldset>
      <ErrorMessage problem={problemBeyondFields(write.problem, FIELDS)} />
      <StatusMessage text={write.done} />
      <button type="submit" disabled={write.busy || choices.data === undefined}>
        Save shop placement
      </button>
    </form>
  );
}

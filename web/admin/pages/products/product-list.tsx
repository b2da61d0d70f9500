import { useState } from 'preact/hooks';
import { type Answer, ok } from '../../../api/client';
import { Picture } from '../../../shared/picture';
import { ErrorMessage, Field, Money, Pager, SelectField } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { usePages } from '../../use-loaded';
import { NewProduct } from './new-product';

type Page = Answer<'/product/dashboard/api/products/', 'get'>;
type Status = 'active' | 'archived' | 'all';
const statuses: { value: Status; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'archived', label: 'Archived' },
];

/** /admin/products: every product with its variants' stock, searchable, and the form for a new one. */
export function ProductList() {
  const { api, currency } = useDashboard();
  const [search, setSearch] = useState({ q: '', status: 'all' as Status });
  const [draft, setDraft] = useState(search);
  const q = search.q.trim();
  const {
    items: products,
    next,
    problem,
    more,
  } = usePages(
    (cursor) =>
      ok(
        api.GET('/product/dashboard/api/products/', {
          params: { query: { limit: 20, status: search.status, q: q === '' ? undefined : q, cursor } },
        }),
      ),
    `${search.status} ${q}`,
  );

  return (
    <>
      <h1>Products</h1>
      <form
        class="row filters"
        aria-label="Search products"
        onSubmit={(e) => {
          e.preventDefault();
          setSearch(draft);
        }}
      >
        <Field
          label="Name contains"
          type="search"
          name="q"
          value={draft.q}
          onInput={(e) => setDraft({ ...draft, q: e.currentTarget.value })}
          error={undefined}
        />
        <SelectField
          label="Status"
          name="status"
          value={draft.status}
          onChange={(e) => setDraft({ ...draft, status: e.currentTarget.value as Status })}
        >
          {statuses.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </SelectField>
        <button type="submit">Search</button>
      </form>
      <ErrorMessage problem={problem} />
      {products === undefined && problem === undefined && <p>Loading…</p>}
      {products?.length === 0 && <p>No products match.</p>}
      {products !== undefined && products.length > 0 && (
        <div class="table-wrap">
          <table class="reflow">
            <thead>
              <tr>
                <th>
                  <span class="visually-hidden">Image</span>
                </th>
                <th>Name</th>
                <th>Variants</th>
                <th>Price</th>
                <th class="num">Stock</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {products.map((product) => (
                <tr key={product.id}>
                  <td data-label="Image">
                    {product.images[0] && <Picture image={product.images[0]} sizes="3rem" class="thumb" />}
                  </td>
                  <td data-label="Name">
                    <a href={`/admin/products/${product.id}`}>{product.name}</a>
                  </td>
                  <td data-label="Variants">{product.variants.map((v) => v.name).join(', ')}</td>
                  <td data-label="Price">
                    {product.variants[0] && <Money amount={product.variants[0].price} currency={currency} />}
                  </td>
                  <td data-label="Stock" class="num">
                    {stockText(product.variants)}
                  </td>
                  <td data-label="Status">{product.archived ? 'Archived' : 'Active'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager nextCursor={next} onNext={more} />
      <NewProduct />
    </>
  );
}

/** Units on hand over the tracked variants; "not tracked" when none is. */
function stockText(variants: Page['items'][number]['variants']): string {
  const tracked = variants.filter((v) => v.track_inventory);
  if (tracked.length === 0) return 'not tracked';
  return String(tracked.reduce((sum, v) => sum + v.stock, 0));
}

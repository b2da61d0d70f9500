import { useState } from 'preact/hooks';
import { Money } from '../../../shared/ui';
import { useDashboard } from '../../context';
import type { Product, Variant } from './variant-draft';
import { VariantEditor } from './variant-editor';
import { VariantPrices } from './variant-prices';

/** A product's variants with their prices and stock; "Edit" opens one in the editor below the table. */
export function VariantList(props: { product: Product; onChanged: () => void }) {
  const { currency } = useDashboard();
  const [editing, setEditing] = useState<number>();
  const variant = props.product.variants.find((v) => v.id === editing);
  return (
    <section aria-labelledby="variants-heading">
      <h2 id="variants-heading">Variants</h2>
      <div class="table-wrap">
        <table class="reflow">
          <thead>
            <tr>
              <th>Name</th>
              <th>SKU</th>
              <th>Price</th>
              <th>Compare-at</th>
              <th class="num">Stock</th>
              <th>Limit</th>
              <th>Weight</th>
              <th>Status</th>
              <th>
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {props.product.variants.map((v) => (
              <tr key={v.id}>
                <td data-label="Name">
                  <span>
                    {v.name}
                    <br />
                    <small class="muted">{v.alias}</small>
                  </span>
                </td>
                <td data-label="SKU">{v.sku ?? '—'}</td>
                <td data-label="Price">
                  <Money amount={v.price} currency={currency} />
                </td>
                <td data-label="Compare-at">
                  {v.compare_at_price === null ? '—' : <Money amount={v.compare_at_price} currency={currency} />}
                </td>
                <td data-label="Stock" class="num">
                  {stockText(v)}
                </td>
                <td data-label="Limit">{v.purchase_limit_per_order ?? '—'}</td>
                <td data-label="Weight">{v.weight_grams === null ? '—' : `${v.weight_grams} g`}</td>
                <td data-label="Status">{v.archived ? 'Archived' : 'Active'}</td>
                <td data-label="Actions">
                  <button
                    type="button"
                    class="secondary"
                    aria-label={`Edit ${v.name}`}
                    onClick={() => setEditing(v.id)}
                  >
                    Edit
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {variant && (
        <>
          <VariantEditor
            key={variant.id}
            variant={variant}
            onChanged={props.onChanged}
            onClose={() => setEditing(undefined)}
          />
          <VariantPrices key={`prices-${variant.id}`} variant={variant} />
        </>
      )}
    </section>
  );
}

function stockText(v: Variant): string {
  if (!v.track_inventory) return 'not tracked';
  return v.allow_backorder ? `${v.stock} (backorders)` : String(v.stock);
}

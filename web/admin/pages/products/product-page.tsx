import { useRoute } from 'preact-iso';
import { ok } from '../../../api/client';
import { ErrorMessage } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { useLoaded } from '../../use-loaded';
import { StatusMessage } from '../common/form-parts';
import { useCreatedNotice } from '../common/created-notice';
import { ProductPlacement } from '../navigation/product-placement';
import { NewVariant } from './new-variant';
import { OptionEditor } from './option-editor';
import { ProductDetails } from './product-details';
import { ProductImages } from './product-images';
import type { Product } from './variant-draft';
import { VariantList } from './variant-list';

/** /admin/products/:id: a product's fields, archive and restore, its variants (prices, stock, limits) and new ones. */
export function ProductPage() {
  const { api } = useDashboard();
  const { params, query } = useRoute();
  const id = Number(params.id);
  const created = useCreatedNotice(query);
  const loaded = useLoaded<Product>(
    () => ok(api.GET('/product/dashboard/api/products/{id}/', { params: { path: { id } } })),
    String(id),
  );
  const { data: product, problem, reload, show } = loaded;

  return (
    <>
      <p>
        <a href="/admin/products">All products</a>
      </p>
      <h1>{product?.name ?? 'Product'}</h1>
      <ErrorMessage problem={problem} />
      {product === undefined && problem === undefined && <p>Loading…</p>}
      {product && (
        <>
          {created && <StatusMessage text={`Product ${product.name} created.`} />}
          <ProductDetails product={product} onSaved={show} />
          <ProductPlacement key={product.id} product={product} onSaved={show} />
          <ProductImages product={product} onChanged={reload} />
          <OptionEditor product={product} onChanged={reload} />
          <VariantList product={product} onChanged={reload} />
          <NewVariant product={product} onAdded={reload} />
        </>
      )}
    </>
  );
}

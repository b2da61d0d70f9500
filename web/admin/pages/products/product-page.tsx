import { useRoute } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { ok } from '../../../api/client';
import { asProblem, type Problem } from '../../../shared/problem';
import { ErrorMessage } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { StatusMessage } from '../common/form-parts';
import { useCreatedNotice } from '../common/created-notice';
import { NewVariant } from './new-variant';
import { ProductDetails } from './product-details';
import type { Product } from './variant-draft';
import { VariantList } from './variant-list';

/** /admin/products/:id: a product's fields, archive and restore, its variants (prices, stock, limits) and new ones. */
export function ProductPage() {
  const { api } = useDashboard();
  const { params, query } = useRoute();
  const id = Number(params.id);
  const created = useCreatedNotice(query);
  const [product, setProduct] = useState<Product>();
  const [problem, setProblem] = useState<Problem>();

  const load = () =>
    ok(api.GET('/product/dashboard/api/products/{id}/', { params: { path: { id } } }))
      .then(setProduct)
      .catch((err: unknown) => setProblem(asProblem(err)));

  useEffect(() => {
    setProduct(undefined);
    setProblem(undefined);
    void load();
  }, [id]);

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
          <ProductDetails product={product} onSaved={setProduct} />
          <VariantList product={product} onChanged={load} />
          <NewVariant productId={product.id} onAdded={load} />
        </>
      )}
    </>
  );
}

import { useEffect, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { asProblem, type Problem } from '../../shared/problem';
import { ErrorMessage, Pager } from '../../shared/ui';
import { type ListedProduct as Product, ProductGrid } from '../components/product-card';
import { useMarketCode, useShop } from '../context';

export function ProductList() {
  const { api, currency } = useShop();
  const market = useMarketCode();
  const [products, setProducts] = useState<Product[]>();
  const [next, setNext] = useState<string | null>(null);
  const [problem, setProblem] = useState<Problem>();

  const load = (cursor?: string) =>
    ok(
      api.GET('/product/storefront/api/products/', {
        params: { query: { limit: 24, cursor } },
      }),
    )
      .then((page) => {
        setProducts((before) => [...(cursor ? (before ?? []) : []), ...page.items]);
        setNext(page.next_cursor);
      })
      .catch((err: unknown) => setProblem(asProblem(err)));

  // Read again in another market: its prices (and currency) are the ones shown.
  useEffect(() => {
    void load();
  }, [market]);

  return (
    <>
      <h1>Products</h1>
      <ErrorMessage problem={problem} />
      {products === undefined && problem === undefined && <p>Loading…</p>}
      {products?.length === 0 && <p>There are no products yet.</p>}
      {products && <ProductGrid products={products} storeCurrency={currency} />}
      <Pager nextCursor={next} onNext={(cursor) => void load(cursor)} />
    </>
  );
}

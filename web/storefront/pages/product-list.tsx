import { useEffect, useState } from 'preact/hooks';
import { type Answer, ok } from '../../api/client';
import { asProblem, type Problem } from '../../shared/problem';
import { ErrorMessage, Money, Pager } from '../../shared/ui';
import { useShop } from '../context';

type Product = Answer<'/product/storefront/api/products/', 'get'>['items'][number];

export function ProductList() {
  const { api, currency } = useShop();
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

  useEffect(() => {
    void load();
  }, []);

  return (
    <>
      <h1>Products</h1>
      <ErrorMessage problem={problem} />
      {products === undefined && problem === undefined && <p>Loading…</p>}
      <ul class="grid">
        {products?.map((product) => {
          const prices = product.variants.map((v) => v.price);
          return (
            <li class="card" key={product.id}>
              <h2>
                <a href={`/products/${product.id}`}>{product.name}</a>
              </h2>
              {prices[0] !== undefined && <Money amount={prices[0]} currency={currency} />}
            </li>
          );
        })}
      </ul>
      <Pager nextCursor={next} onNext={(cursor) => void load(cursor)} />
    </>
  );
}

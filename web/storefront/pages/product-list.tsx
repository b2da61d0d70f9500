import { useEffect, useState } from 'preact/hooks';
import { type Answer, ok } from '../../api/client';
import { asProblem, type Problem } from '../../shared/problem';
import { Picture } from '../../shared/picture';
import { ErrorMessage, Pager } from '../../shared/ui';
import { PriceRange } from '../components/price-range';
import { useMarketCode, useShop } from '../context';
import { answerCurrency } from '../market';

type Product = Answer<'/product/storefront/api/products/', 'get'>['items'][number];

function stockSummary(product: Product): string {
  const available = product.variants.filter((v) => v.available);
  if (available.length === 0) return 'Out of stock';
  return available.length < product.variants.length ? 'Some options out of stock' : 'In stock';
}

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
      <ul class="grid">
        {products?.map((product, index) => (
          <li class="card" key={product.id}>
            {product.images[0] && (
              <Picture
                image={product.images[0]}
                sizes="(min-width: 48rem) 14rem, 100vw"
                eager={index < 4}
                class="card-image"
              />
            )}
            <h2>
              <a href={`/products/${product.id}`}>{product.name}</a>
            </h2>
            <p>
              <PriceRange prices={product.variants.map((v) => v.price)} currency={answerCurrency(product, currency)} />
            </p>
            <p class="muted">{stockSummary(product)}</p>
          </li>
        ))}
      </ul>
      <Pager nextCursor={next} onNext={(cursor) => void load(cursor)} />
    </>
  );
}

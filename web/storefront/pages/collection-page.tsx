import { useRoute } from 'preact-iso';
import { useEffect } from 'preact/hooks';
import { ok } from '../../api/client';
import { ErrorMessage, Pager } from '../../shared/ui';
import { setPageMeta } from '../catalog/page-meta';
import { useListing } from '../catalog/use-listing';
import { Breadcrumbs } from '../components/breadcrumbs';
import { ProductGrid } from '../components/product-card';
import { useMarketCode, useShop } from '../context';

/** A collection's page (`/collections/<handle>`): its products in the collection's order, paged, in the market. */
export function CollectionPage() {
  const { api, currency } = useShop();
  const market = useMarketCode();
  const { params } = useRoute();
  const handle = params.handle ?? '';
  const { listing, products, problem, next } = useListing(
    (cursor) =>
      ok(
        api.GET('/product/storefront/api/collections/{handle}/', {
          params: { path: { handle }, query: { limit: 24, cursor } },
        }),
      ),
    `${handle} ${market ?? ''}`,
  );
  useEffect(() => {
    if (listing) setPageMeta(listing.seo);
  }, [listing]);

  if (problem) {
    return (
      <>
        <h1>Collection not found</h1>
        <ErrorMessage problem={problem} />
        <p>
          <a href="/">See the products</a>
        </p>
      </>
    );
  }
  if (listing === undefined) return <p>Loading…</p>;
  return (
    <>
      <Breadcrumbs trail={[]} current={listing.name} />
      <h1>{listing.name}</h1>
      {listing.description && <p>{listing.description}</p>}
      {products.length === 0 && <p>There are no products in this collection yet.</p>}
      <ProductGrid products={products} storeCurrency={currency} />
      <Pager nextCursor={listing.products.next_cursor} onNext={next} />
    </>
  );
}

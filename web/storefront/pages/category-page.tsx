import { useRoute } from 'preact-iso';
import { useEffect } from 'preact/hooks';
import { ok } from '../../api/client';
import { ErrorMessage, Pager } from '../../shared/ui';
import { categoryPath } from '../catalog/paths';
import { setPageMeta } from '../catalog/page-meta';
import { useListing } from '../catalog/use-listing';
import { Breadcrumbs } from '../components/breadcrumbs';
import { ProductGrid } from '../components/product-card';
import { useMarketCode, useShop } from '../context';

/**
 * A category's page (`/c/<handle>`): breadcrumbs from the top of the tree, its description, its subcategories, and
 * the products of the category and of all its subcategories, paged, priced in the shop's market.
 */
export function CategoryPage() {
  const { api, currency } = useShop();
  const market = useMarketCode();
  const { params } = useRoute();
  const handle = params.handle ?? '';
  const { listing, products, problem, next } = useListing(
    (cursor) =>
      ok(
        api.GET('/product/storefront/api/categories/{handle}/', {
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
        <h1>Category not found</h1>
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
      <Breadcrumbs trail={listing.breadcrumb} current={listing.name} />
      <h1>{listing.name}</h1>
      {listing.description && <p>{listing.description}</p>}
      {listing.children.length > 0 && (
        <nav aria-label="Subcategories">
          <ul class="row plain chips">
            {listing.children.map((child) => (
              <li key={child.id}>
                <a href={categoryPath(child.handle)}>{child.name}</a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {products.length === 0 && <p>There are no products in this category yet.</p>}
      <ProductGrid products={products} storeCurrency={currency} />
      <Pager nextCursor={listing.products.next_cursor} onNext={next} />
    </>
  );
}

import type { ComponentChildren } from 'preact';
import { useRoute } from 'preact-iso';
import { useEffect } from 'preact/hooks';
import { Pager } from '../../shared/ui';
import { setPageMeta } from '../catalog/page-meta';
import { useListing } from '../catalog/use-listing';
import { useMarketCode, useShop } from '../context';
import { Breadcrumbs } from './breadcrumbs';
import { NotAvailable } from './not-available';
import { type ListedProduct, ProductGrid } from './product-card';

/** How many products a page of a category or collection shows at first and adds with "Next page". */
const PAGE_SIZE = 24;

/** The query of a page of a listing's products. */
export interface ListingPageQuery {
  limit: number;
  cursor: string | undefined;
}

/** What a category's or collection's page shows of the storefront's answer. */
export interface ShownListing {
  name: string;
  description: string;
  seo: { title: string; description: string };
  products: { items: ListedProduct[]; next_cursor: string | null };
}

/**
 * The page of a category or a collection (`/c/<handle>`, `/collections/<handle>`), read by the route's handle and again
 * in another market: loading, "not found", breadcrumbs, title and SEO meta, description, its products paged, and a
 * word when it has none. What differs is said by the props.
 */
export function ListingPage<L extends ShownListing>(props: {
  /** How the page names what it shows ("category", "collection"). */
  noun: string;
  /** A page of the listing of `handle` in the shop's market: `limit` products from `cursor` on. */
  read: (handle: string, page: ListingPageQuery) => Promise<L>;
  /** The categories above it, for the breadcrumbs: none by default. */
  trail?: (listing: L) => { name: string; handle: string }[];
  /** What comes between the description and the products (a category's subcategories). */
  between?: (listing: L) => ComponentChildren;
}) {
  const { currency } = useShop();
  const market = useMarketCode();
  const { params } = useRoute();
  const handle = params.handle ?? '';
  const { listing, products, problem, next } = useListing(
    (cursor) => props.read(handle, { limit: PAGE_SIZE, cursor }),
    `${handle} ${market ?? ''}`,
  );
  useEffect(() => {
    if (listing) setPageMeta(listing.seo);
  }, [listing]);

  if (problem) {
    return (
      <NotAvailable title={`${props.noun.charAt(0).toUpperCase()}${props.noun.slice(1)} not found`} problem={problem} />
    );
  }
  if (listing === undefined) return <p>Loading…</p>;
  return (
    <>
      <Breadcrumbs trail={props.trail?.(listing) ?? []} current={listing.name} />
      <h1>{listing.name}</h1>
      {listing.description && <p>{listing.description}</p>}
      {props.between?.(listing)}
      {products.length === 0 && <p>There are no products in this {props.noun} yet.</p>}
      <ProductGrid products={products} storeCurrency={currency} />
      <Pager nextCursor={listing.products.next_cursor} onNext={next} />
    </>
  );
}

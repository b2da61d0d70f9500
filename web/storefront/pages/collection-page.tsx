import { ok } from '../../api/client';
import { ListingPage } from '../components/listing-page';
import { useShop } from '../context';

/** A collection's page (`/collections/<handle>`): its products in the collection's order, paged, in the market. */
export function CollectionPage() {
  const { api } = useShop();
  return (
    <ListingPage
      noun="collection"
      read={(handle, query) =>
        ok(api.GET('/product/storefront/api/collections/{handle}/', { params: { path: { handle }, query } }))
      }
    />
  );
}

import { ok } from '../../api/client';
import { categoryPath } from '../catalog/paths';
import { ListingPage } from '../components/listing-page';
import { useShop } from '../context';

/**
 * A category's page (`/c/<handle>`): breadcrumbs from the top of the tree, its description, its subcategories, and
 * the products of the category and of all its subcategories, paged, priced in the shop's market.
 */
export function CategoryPage() {
  const { api } = useShop();
  return (
    <ListingPage
      noun="category"
      read={(handle, query) =>
        ok(api.GET('/product/storefront/api/categories/{handle}/', { params: { path: { handle }, query } }))
      }
      trail={(category) => category.breadcrumb}
      between={(category) =>
        category.children.length > 0 && (
          <nav aria-label="Subcategories">
            <ul class="row plain chips">
              {category.children.map((child) => (
                <li key={child.id}>
                  <a href={categoryPath(child.handle)}>{child.name}</a>
                </li>
              ))}
            </ul>
          </nav>
        )
      }
    />
  );
}

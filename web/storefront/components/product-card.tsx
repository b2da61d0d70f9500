import type { Answer } from '../../api/client';
import { productPath } from '../catalog/paths';
import { answerCurrency } from '../market';
import { PriceRange } from './price-range';

/** A product as the storefront's lists answer it (the product list, a category's or a collection's page). */
export type ListedProduct = Answer<'/product/storefront/api/products/', 'get'>['items'][number];

function stockSummary(product: ListedProduct): string {
  const available = product.variants.filter((v) => v.available);
  if (available.length === 0) return 'Out of stock';
  return available.length < product.variants.length ? 'Some options out of stock' : 'In stock';
}

/** A product's card in a grid: its name linking to its page, its price range in the answer's currency, its stock. */
export function ProductCard(props: { product: ListedProduct; storeCurrency: string }) {
  const { product } = props;
  return (
    <li class="card">
      <h2>
        <a href={productPath(product)}>{product.name}</a>
      </h2>
      <p>
        <PriceRange
          prices={product.variants.map((v) => v.price)}
          currency={answerCurrency(product, props.storeCurrency)}
        />
      </p>
      <p class="muted">{stockSummary(product)}</p>
    </li>
  );
}

/** The grid of cards. */
export function ProductGrid(props: { products: ListedProduct[]; storeCurrency: string }) {
  return (
    <ul class="grid">
      {props.products.map((product) => (
        <ProductCard key={product.id} product={product} storeCurrency={props.storeCurrency} />
      ))}
    </ul>
  );
}

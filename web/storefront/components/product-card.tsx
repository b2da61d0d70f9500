import type { Answer } from '../../api/client';
import { Picture } from '../../shared/picture';
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

/**
 * A product's card in a grid: its first image (loaded at once for the first row, `eagerImage`, lazily below), its name
 * linking to its page, its price range in the answer's currency, its stock.
 */
export function ProductCard(props: { product: ListedProduct; storeCurrency: string; eagerImage?: boolean }) {
  const { product } = props;
  return (
    <li class="card">
      {product.images[0] && (
        <Picture
          image={product.images[0]}
          sizes="(min-width: 48rem) 14rem, 100vw"
          eager={props.eagerImage === true}
          class="card-image"
        />
      )}
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
      {props.products.map((product, index) => (
        <ProductCard key={product.id} product={product} storeCurrency={props.storeCurrency} eagerImage={index < 4} />
      ))}
    </ul>
  );
}

import type { ProductScope } from './promotion.types.js';

/** Whether a product is in a scope; a null (or empty) scope holds every product. */
export function inScope(scope: ProductScope, productId: number): boolean {
  return scope === null || scope.length === 0 || scope.includes(productId);
}

/** "products 3, 7" for the sentences of a refusal. */
export function productList(products: readonly number[]): string {
  return `${products.length === 1 ? 'product' : 'products'} ${products.join(', ')}`;
}

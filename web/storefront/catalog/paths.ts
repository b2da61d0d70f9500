/**
 * The shop's addresses of catalog pages. A product is at `/p/<handle>` (every product has a handle); the older
 * `/products/<id>` still opens it and is replaced by the handle's address.
 */
export function productPath(product: { id: number; handle?: string | null }): string {
  return product.handle ? `/p/${encodeURIComponent(product.handle)}` : `/products/${product.id}`;
}

export function categoryPath(handle: string): string {
  return `/c/${encodeURIComponent(handle)}`;
}

export function collectionPath(handle: string): string {
  return `/collections/${encodeURIComponent(handle)}`;
}

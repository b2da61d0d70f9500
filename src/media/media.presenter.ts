import type { ProductImage } from './media.repository.js';
import { presentImage } from './media.values.js';

export function presentAdminImage(image: ProductImage) {
  return {
    ...presentImage({ ...image, key: image.storageKey }),
    product_id: image.productId,
    key: image.storageKey,
    mime: image.mime,
    byte_size: image.byteSize,
    position: image.position,
    variant_ids: image.variantIds,
  };
}

import type { CategoryRow } from './categories.repository.js';
import type { CollectionRecord } from './collections.repository.js';

export function presentAdminCategory(row: CategoryRow) {
  return {
    id: row.id,
    parent_id: row.parentId,
    position: row.position,
    name: row.name,
    handle: row.handle,
    description: row.description,
    seo_title: row.seoTitle,
    seo_description: row.seoDescription,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function presentAdminCollection(record: CollectionRecord) {
  return {
    id: record.id,
    name: record.name,
    handle: record.handle,
    description: record.description,
    seo_title: record.seoTitle,
    seo_description: record.seoDescription,
    product_ids: record.productIds,
    created_at: record.createdAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
  };
}

/** A category or collection as a link names it. */
export const refTo = (item: { id: number; name: string; handle: string }) => ({
  id: item.id,
  name: item.name,
  handle: item.handle,
});

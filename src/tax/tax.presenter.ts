import type { TaxClassRow, TaxRateRow } from './tax.repository.js';
import { canonicalPercent } from './tax.values.js';

export function presentTaxClass(row: TaxClassRow) {
  return {
    id: row.id,
    name: row.name,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function presentTaxRate(row: TaxRateRow) {
  return {
    id: row.id,
    tax_class_id: row.taxClassId,
    country: row.country,
    state: row.state,
    rate: canonicalPercent(row.rate),
    is_active: row.isActive,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

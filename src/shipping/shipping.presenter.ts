import { type CurrencyFormat, currencyFormat, formatDecimal } from '../shared/money.js';
import type { ShippingMethodRow, ShippingRateRow } from './shipping.repository.js';

export function presentShippingMethod(row: ShippingMethodRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    is_active: row.isActive,
    tax_class_id: row.taxClassId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function presentShippingRate(row: ShippingRateRow, money: CurrencyFormat) {
  return {
    id: row.id,
    shipping_method_id: row.shippingMethodId,
    country: row.country,
    state: row.state,
    city: row.city,
    weight_min_kg: formatDecimal(row.weightMinKg),
    weight_max_kg: row.weightMaxKg === null ? null : formatDecimal(row.weightMaxKg),
    base_rate: money.format(row.baseRate),
    per_kg_rate: money.format(row.perKgRate),
    prices: row.prices.map((price) => {
      const own = currencyFormat(price.currency);
      return {
        currency: price.currency,
        base_rate: own.format(price.baseRate),
        per_kg_rate: own.format(price.perKgRate),
      };
    }),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

import type { Static } from 'typebox';
import { normaliseCountry } from '../addresses/address.schema.js';
import { DomainError, type FieldError, invalidField } from '../shared/errors.js';
import { compareDecimal, type CurrencyFormat, formatDecimal, MoneyFormatError } from '../shared/money.js';
import type { ShippingMethodValues, ShippingRateValues } from './shipping.repository.js';
import { type ShippingRatePriceValues, shippingRatePriceValues } from './shipping-rate-prices.values.js';
import type {
  ShippingMethodInput,
  ShippingMethodPatch,
  ShippingRateInput,
  ShippingRatePatch,
} from './shipping.schema.js';

// What the admin sends, checked beyond its schema and turned into the stored form (blank names, money at the store
// currency's precision, weights, a non-empty bracket), each failure a 422 naming its field.

/** A method's name, trimmed; blank is a 422. */
function methodName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw invalidField('name', 'must not be blank');
  return trimmed;
}

export function newShippingMethodValues(body: Static<typeof ShippingMethodInput>): ShippingMethodValues {
  return {
    name: methodName(body.name),
    description: body.description?.trim() ?? '',
    isActive: body.is_active ?? true,
    taxClassId: body.tax_class_id ?? null,
  };
}

/** Wire fields of a method → column values; absent fields stay absent (PATCH). */
export function shippingMethodValues(body: Static<typeof ShippingMethodPatch>): Partial<ShippingMethodValues> {
  const values: Partial<ShippingMethodValues> = {
    name: body.name === undefined ? undefined : methodName(body.name),
    description: body.description?.trim(),
    isActive: body.is_active,
    taxClassId: body.tax_class_id,
  };
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

/** numeric(12,3): nine whole digits and three decimals. */
const WEIGHT = /^\d{1,9}(\.\d{1,3})?$/;

/** A weight bracket must not be empty: with an upper end, it lies above the lower one. */
export function assertBracket(minKg: string, maxKg: string | null): void {
  if (maxKg !== null && compareDecimal(maxKg, minKg) <= 0) {
    throw invalidField('weight_max_kg', `must be greater than weight_min_kg (${formatDecimal(minKg)})`);
  }
}

/** '' (any) or an upper-cased ISO code. */
function placeCountry(raw: string): string {
  const trimmed = raw.trim();
  return trimmed === '' ? '' : normaliseCountry(trimmed);
}

/** What a rate's payload changes: its columns (absent fields stay absent) and, if sent, its amounts per currency. */
export interface ShippingRateChange {
  values: Partial<ShippingRateValues>;
  prices: ShippingRatePriceValues[] | undefined;
}

/** Wire fields of a rate → column values, every field checked; absent fields stay absent (PATCH). */
export function shippingRateValues(
  body: Static<typeof ShippingRatePatch>,
  money: CurrencyFormat,
): Partial<ShippingRateValues> {
  return shippingRateChange(body, money).values;
}

/** The same with the rate's amounts per currency (`prices`, replaced whole when sent), every refusal in one 422. */
export function shippingRateChange(body: Static<typeof ShippingRatePatch>, money: CurrencyFormat): ShippingRateChange {
  const errors: FieldError[] = [];
  const amount = (field: string, text: string | undefined): number | undefined => {
    if (text === undefined) return undefined;
    try {
      const minor = money.parse(text);
      if (minor < 0) errors.push({ field, message: 'must not be negative' });
      return minor;
    } catch (err) {
      if (!(err instanceof MoneyFormatError)) throw err;
      errors.push({ field, message: `${err.message} (${money.currency})` });
      return undefined;
    }
  };
  const weight = <T extends string | null | undefined>(field: string, text: T): T => {
    if (typeof text === 'string' && !WEIGHT.test(text)) {
      errors.push({
        field,
        message: 'must be kilograms written as a string like "2.5", at most 3 decimals, not negative',
      });
    }
    return text;
  };
  let country: string | undefined;
  try {
    country = body.country === undefined ? undefined : placeCountry(body.country);
  } catch (err) {
    if (!(err instanceof DomainError) || !err.errors) throw err;
    errors.push(...err.errors);
  }
  const values: Partial<ShippingRateValues> = {
    shippingMethodId: body.shipping_method_id,
    country,
    state: body.state?.trim(),
    city: body.city?.trim(),
    weightMinKg: weight('weight_min_kg', body.weight_min_kg),
    weightMaxKg: weight('weight_max_kg', body.weight_max_kg),
    baseRate: amount('base_rate', body.base_rate),
    perKgRate: amount('per_kg_rate', body.per_kg_rate),
  };
  const prices =
    body.prices === undefined
      ? undefined
      : shippingRatePriceValues(body.prices, { storeCurrency: money.currency, errors });
  if (errors.length > 0) {
    throw new DomainError('validation_error', {
      detail: errors.map((e) => `${e.field} ${e.message}`).join('; '),
      errors,
    });
  }
  return { values: Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)), prices };
}

export function newShippingRateValues(
  body: Static<typeof ShippingRateInput>,
  money: CurrencyFormat,
): ShippingRateValues {
  return newShippingRate(body, money).values;
}

/** A new rate's columns and amounts per currency (none when `prices` is absent). */
export function newShippingRate(
  body: Static<typeof ShippingRateInput>,
  money: CurrencyFormat,
): { values: ShippingRateValues; prices: ShippingRatePriceValues[] } {
  const { values, prices } = shippingRateChange(body, money);
  const rate: ShippingRateValues = {
    shippingMethodId: body.shipping_method_id,
    country: values.country ?? '',
    state: values.state ?? '',
    city: values.city ?? '',
    weightMinKg: body.weight_min_kg,
    weightMaxKg: values.weightMaxKg ?? null,
    baseRate: values.baseRate ?? 0,
    perKgRate: values.perKgRate ?? 0,
  };
  assertBracket(rate.weightMinKg, rate.weightMaxKg);
  return { values: rate, prices: prices ?? [] };
}

/** Where the store ships: every country (a rate of an active method for any country), or the countries listed. */
export interface ShippingDestinations {
  all_countries: boolean;
  /** ISO 3166-1 alpha-2, upper-case, sorted, each once; the countries rates name even when all_countries. */
  countries: string[];
}

/** The destinations from the countries of the active methods' rates ('' is a rate of any country). */
export function shippingDestinations(rateCountries: readonly string[]): ShippingDestinations {
  const named = new Set(rateCountries.map((c) => c.trim().toUpperCase()).filter((c) => c !== ''));
  return { all_countries: rateCountries.some((c) => c.trim() === ''), countries: [...named].sort() };
}

import type { Static } from 'typebox';
import { normaliseCountry } from '../addresses/address.schema.js';
import { DomainError, type FieldError, invalidField } from '../shared/errors.js';
import { compareDecimal, formatDecimal } from '../shared/money.js';
import type { TaxRateValues } from './tax.repository.js';
import type { TaxRateInput, TaxRatePatch } from './tax.schema.js';

// What the admin sends, checked beyond its schema and turned into the stored form (a class's name, a rate's
// country and percent), each failure a 422 naming its field.

/** numeric(7,4): three whole digits (100 is the most) and four decimals. */
const PERCENT = /^\d{1,3}(\.\d{1,4})?$/;

/** `"7.2500"` → `"7.25"`, `"15.0000"` → `"15"`: the one way a rate is written on the wire. */
export function canonicalPercent(text: string): string {
  return formatDecimal(text);
}

/** A percent from the wire, checked to be 0..100 with at most 4 decimals; never rounded. */
export function parseRate(text: string, field = 'rate'): string {
  if (!PERCENT.test(text) || compareDecimal(text, '100') > 0) {
    throw invalidField(
      field,
      'must be a percentage from 0 to 100 with at most 4 decimals, written as a string like "7.25"',
    );
  }
  return canonicalPercent(text);
}

/** A class name, trimmed; blank is a 422. */
export function taxClassName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw invalidField('name', 'must not be blank');
  return trimmed;
}

export function newTaxRateValues(body: Static<typeof TaxRateInput>): TaxRateValues {
  const values = taxRateValues(body);
  return {
    taxClassId: body.tax_class_id,
    country: values.country ?? body.country,
    state: values.state ?? '',
    rate: values.rate ?? body.rate,
    isActive: body.is_active ?? true,
  };
}

/** The value `read` gives, or undefined with its field errors collected (to report them all at once). */
function collecting<T>(errors: FieldError[], read: () => T): T | undefined {
  try {
    return read();
  } catch (err) {
    if (!(err instanceof DomainError) || !err.errors) throw err;
    errors.push(...err.errors);
    return undefined;
  }
}

/** Wire fields of a rate → column values, every field checked; absent fields stay absent (PATCH). */
export function taxRateValues(body: Static<typeof TaxRatePatch>): Partial<TaxRateValues> {
  const errors: FieldError[] = [];
  const { country, rate } = body;
  const values: Partial<TaxRateValues> = {
    taxClassId: body.tax_class_id,
    country: country === undefined ? undefined : collecting(errors, () => normaliseCountry(country)),
    state: body.state?.trim(),
    rate: rate === undefined ? undefined : collecting(errors, () => parseRate(rate)),
    isActive: body.is_active,
  };
  if (errors.length > 0) {
    throw new DomainError('validation_error', {
      detail: errors.map((e) => `${e.field} ${e.message}`).join('; '),
      errors,
    });
  }
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

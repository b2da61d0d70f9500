import type { Static } from 'typebox';
import { normaliseEmail } from '../auth/email.js';
import { DomainError } from '../shared/errors.js';
import { normaliseCountry, type StoredAddressPatch } from './address.schema.js';
import type { AddressValues } from './addresses.repository.js';

// What a customer sends for a stored address, checked beyond its schema (country, email, blank required fields) and
// turned into the stored form; each failure a 422 naming its field.

/** Wire fields of an address → column values, trimmed and checked; absent fields stay absent (PATCH). */
export function addressValues(body: Static<typeof StoredAddressPatch>): Partial<AddressValues> {
  const trimmed = (v: string | undefined) => (v === undefined ? undefined : v.trim());
  const values: Partial<AddressValues> = {
    firstName: trimmed(body.first_name),
    lastName: trimmed(body.last_name),
    streetAddress: trimmed(body.street_address),
    city: trimmed(body.city),
    postalCode: trimmed(body.postal_code),
    state: trimmed(body.state),
    country: body.country === undefined ? undefined : normaliseCountry(body.country),
    email: body.email === undefined || body.email.trim() === '' ? trimmed(body.email) : normaliseEmail(body.email),
    phoneNumber: trimmed(body.phone_number),
    isDefault: body.is_default,
  };
  for (const [field, value] of Object.entries({
    first_name: values.firstName,
    last_name: values.lastName,
    street_address: values.streetAddress,
    city: values.city,
  })) {
    if (value === '')
      throw new DomainError('validation_error', {
        errors: [{ field, message: 'must not be blank' }],
        detail: `${field} must not be blank`,
      });
  }
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

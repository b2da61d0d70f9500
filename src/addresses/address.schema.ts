import { Type } from 'typebox';
import { invalidField } from '../shared/errors.js';

const Text = (maxLength: number) => Type.String({ maxLength });
const Required = (maxLength: number) => Type.String({ minLength: 1, maxLength });

/** The seed's address object; every field a string. */
export const addressFields = {
  first_name: Text(100),
  last_name: Text(100),
  street_address: Text(300),
  city: Text(100),
  postal_code: Text(20),
  state: Text(100),
  country: Type.String({ minLength: 2, maxLength: 2, description: 'ISO 3166-1 alpha-2 code, e.g. "US"' }),
  email: Text(254),
  phone_number: Text(40),
};

/** What a stored address must have: enough to ship a parcel to. */
export const StoredAddressInput = Type.Object(
  {
    ...addressFields,
    first_name: Required(100),
    last_name: Required(100),
    street_address: Required(300),
    city: Required(100),
    postal_code: Type.Optional(addressFields.postal_code),
    state: Type.Optional(addressFields.state),
    email: Type.Optional(addressFields.email),
    phone_number: Type.Optional(addressFields.phone_number),
    is_default: Type.Optional(Type.Boolean()),
  },
  {
    additionalProperties: false,
    examples: [
      {
        first_name: 'Ada',
        last_name: 'Lovelace',
        street_address: '1 Market St',
        city: 'San Francisco',
        postal_code: '94105',
        state: 'CA',
        country: 'US',
        phone_number: '+1 415 555 0100',
        is_default: true,
      },
    ],
  },
);

export const StoredAddressPatch = Type.Partial(StoredAddressInput, {
  additionalProperties: false,
  examples: [{ street_address: '2 Market St', postal_code: '94105' }],
});

export const StoredAddress = Type.Object({
  id: Type.Integer(),
  ...addressFields,
  is_default: Type.Boolean(),
});

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
/**
 * Two-letter codes already asked about (at most 26 × 26): ICU's lookup costs more than the rest of a quote's address
 * handling.
 */
const knownCodes = new Map<string, boolean>();

function namesCountry(code: string): boolean {
  let known = knownCodes.get(code);
  if (known === undefined) {
    // User-assigned codes (AA, QM–QZ, XA–XZ, ZZ) name no country; Kosovo's XK is the one in common use.
    const userAssigned = /^(AA|Q[M-Z]|X[A-Z]|ZZ)$/.test(code) && code !== 'XK';
    known = !userAssigned && regionNames.of(code) !== undefined;
    knownCodes.set(code, known);
  }
  return known;
}

/** Upper-cases an ISO 3166-1 alpha-2 code and refuses codes that name no region. */
export function normaliseCountry(raw: string, field = 'country'): string {
  const code = raw.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(code) || !namesCountry(code)) {
    throw invalidField(field, 'must be an ISO 3166-1 alpha-2 country code such as "US"');
  }
  return code;
}

import type { RequestBody } from '../../api/client';

export type OrderPayload = RequestBody<'/order/storefront/api/create/', 'post'>;
export type AddressInput = NonNullable<OrderPayload['shipping_address']>;
/** The address form's values: every field as typed (empty when not given). */
export type AddressForm = Required<AddressInput>;

export const emptyAddress: AddressForm = {
  first_name: '',
  last_name: '',
  street_address: '',
  city: '',
  postal_code: '',
  state: '',
  country: '',
  email: '',
  phone_number: '',
};

/** The address as the API takes it: fields left empty are not sent (only `country` is required for an estimate). */
export function addressPayload(form: AddressForm): AddressInput {
  const address: AddressInput = { country: form.country };
  for (const [name, value] of Object.entries(form) as [keyof AddressForm, string][]) {
    const trimmed = value.trim();
    if (name !== 'country' && trimmed !== '') address[name] = trimmed;
  }
  return address;
}

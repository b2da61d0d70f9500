import { countries } from '../../shared/countries';
import { fieldError, type Problem } from '../../shared/problem';
import { Field, SelectField } from '../../shared/ui';
import type { AddressForm } from './address';

/**
 * A delivery address. Errors the API gives for `shipping_address.<field>` show beside that field; `countryError`
 * (e.g. no shipping to that country) beside the country.
 */
export function AddressFields(props: {
  value: AddressForm;
  onChange: (value: AddressForm) => void;
  problem: Problem | undefined;
  countryError: string | undefined;
}) {
  const { value, onChange, problem } = props;
  const error = (name: keyof AddressForm) => fieldError(problem, `shipping_address.${name}`);
  const input = (name: keyof AddressForm) => ({
    value: value[name],
    error: error(name),
    onInput: (e: { currentTarget: HTMLInputElement }) => onChange({ ...value, [name]: e.currentTarget.value }),
  });
  const countryError = [error('country'), props.countryError].filter(Boolean).join('; ') || undefined;
  return (
    <div class="address">
      <div class="pair">
        <Field label="First name" autocomplete="given-name" {...input('first_name')} />
        <Field label="Last name" autocomplete="family-name" {...input('last_name')} />
      </div>
      <Field label="Street address" autocomplete="street-address" {...input('street_address')} />
      <div class="pair">
        <Field label="City" autocomplete="address-level2" {...input('city')} />
        <Field label="Postal code" autocomplete="postal-code" {...input('postal_code')} />
      </div>
      <div class="pair">
        <SelectField
          label="Country"
          autocomplete="country"
          required
          value={value.country}
          error={countryError}
          onChange={(e) => onChange({ ...value, country: e.currentTarget.value })}
        >
          <option value="">Choose a country</option>
          {countries().map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </SelectField>
        <Field
          label="State or region"
          autocomplete="address-level1"
          hint="For the US, the two-letter code (CA, NY)."
          {...input('state')}
        />
      </div>
      <Field label="Phone" type="tel" autocomplete="tel" {...input('phone_number')} />
    </div>
  );
}

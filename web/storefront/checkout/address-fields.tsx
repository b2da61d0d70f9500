import { countries } from '../../shared/countries';
import { fieldError, type Problem } from '../../shared/problem';
import { regionLabel, regionsOf } from '../../shared/regions';
import { Field, SelectField } from '../../shared/ui';
import type { AddressForm } from './address';
import { shippingCountries } from './shipping-countries';
import { useDestinations } from './use-destinations';

/** A new country keeps the state typed or chosen only when the new country's list has it (or it has no list). */
function withCountry(value: AddressForm, country: string): AddressForm {
  const regions = regionsOf(country);
  const keep =
    regions === undefined ? regionsOf(value.country) === undefined : regions.some((r) => r.code === value.state);
  return { ...value, country, state: keep ? value.state : '' };
}

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
  const destinations = useDestinations();
  const regions = regionsOf(value.country);
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
          onChange={(e) => onChange(withCountry(value, e.currentTarget.value))}
        >
          <option value="">Choose a country</option>
          {shippingCountries(countries(), destinations, value.country).map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </SelectField>
        {regions ? (
          <SelectField
            label={regionLabel(value.country)}
            autocomplete="address-level1"
            value={value.state}
            error={error('state')}
            onChange={(e) => onChange({ ...value, state: e.currentTarget.value })}
          >
            <option value="">Choose one</option>
            {regions.map((r) => (
              <option key={r.code} value={r.code}>
                {r.name}
              </option>
            ))}
          </SelectField>
        ) : (
          <Field label="State or region" autocomplete="address-level1" {...input('state')} />
        )}
      </div>
      <Field label="Phone" type="tel" autocomplete="tel" {...input('phone_number')} />
    </div>
  );
}

import { useEffect, useState } from 'preact/hooks';
import { type Answer, ok } from '../../api/client';
import { SelectField } from '../../shared/ui';
import { useShop } from '../context';

export type StoredAddress = Answer<'/user/storefront/api/addresses/', 'get'>[number];

/** A signed-in customer's stored addresses (none for a guest, or when they can't be read). */
export function useStoredAddresses(signedIn: boolean): StoredAddress[] | undefined {
  const { api } = useShop();
  const [addresses, setAddresses] = useState<StoredAddress[]>();
  useEffect(() => {
    if (!signedIn) {
      setAddresses([]);
      return;
    }
    ok(api.GET('/user/storefront/api/addresses/'))
      .then(setAddresses)
      .catch(() => setAddresses([]));
  }, [api, signedIn]);
  return addresses;
}

function describe(a: StoredAddress): string {
  return [`${a.first_name} ${a.last_name}`.trim(), a.street_address, a.city, a.state, a.country]
    .filter(Boolean)
    .join(', ');
}

/** "Deliver to": one of the stored addresses, or a new one typed in (value `new`). */
export function StoredAddressChoice(props: {
  addresses: StoredAddress[];
  chosen: number | 'new';
  onChoose: (chosen: number | 'new') => void;
  error: string | undefined;
}) {
  return (
    <SelectField
      label="Deliver to"
      value={String(props.chosen)}
      error={props.error}
      onChange={(e) => {
        const value = e.currentTarget.value;
        props.onChoose(value === 'new' ? 'new' : Number(value));
      }}
    >
      {props.addresses.map((a) => (
        <option key={a.id} value={a.id}>
          {describe(a)}
        </option>
      ))}
      <option value="new">A new address</option>
    </SelectField>
  );
}

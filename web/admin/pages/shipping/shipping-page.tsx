import { useState } from 'preact/hooks';
import { ok } from '../../../api/client';
import { ErrorMessage } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { useLoaded } from '../../use-loaded';
import { ShippingMethods } from './shipping-methods';
import { ShippingRates, useShippingRates } from './shipping-rates';

/** /admin/shipping: shipping methods (name, description, tax class) and their rates by place and weight. */
export function ShippingPage() {
  const { api } = useDashboard();
  const methods = useLoaded(() => ok(api.GET('/shipping/dashboard/api/shipping-methods/')), 'shipping-methods');
  const [methodId, setMethodId] = useState<number>();
  const rates = useShippingRates(methodId);

  return (
    <>
      <h1>Shipping</h1>
      <ErrorMessage problem={methods.problem} />
      {methods.data === undefined && methods.problem === undefined && <p>Loading…</p>}
      {methods.data && (
        <>
          <ShippingMethods
            methods={methods.data}
            onChanged={() => {
              // Deleting a method deletes its rates: the rates are loaded again too.
              void methods.reload();
              void rates.reload();
            }}
          />
          <ShippingRates methods={methods.data} rates={rates} methodId={methodId} onMethod={setMethodId} />
        </>
      )}
    </>
  );
}

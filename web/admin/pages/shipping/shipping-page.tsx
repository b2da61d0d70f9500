import { useEffect, useState } from 'preact/hooks';
import { ok } from '../../../api/client';
import { asProblem, type Problem } from '../../../shared/problem';
import { ErrorMessage } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { type ShippingMethod, ShippingMethods } from './shipping-methods';
import { ShippingRates } from './shipping-rates';

/** /admin/shipping: shipping methods (name, description, tax class) and their rates by place and weight. */
export function ShippingPage() {
  const { api } = useDashboard();
  const [methods, setMethods] = useState<ShippingMethod[]>();
  const [problem, setProblem] = useState<Problem>();
  // Deleting a method deletes its rates: the rates section reloads when this changes.
  const [version, setVersion] = useState(0);

  const load = () =>
    ok(api.GET('/shipping/dashboard/api/shipping-methods/'))
      .then(setMethods)
      .catch((err: unknown) => setProblem(asProblem(err)));
  useEffect(() => {
    void load();
  }, []);

  return (
    <>
      <h1>Shipping</h1>
      <ErrorMessage problem={problem} />
      {methods === undefined && problem === undefined && <p>Loading…</p>}
      {methods && (
        <>
          <ShippingMethods
            methods={methods}
            onChanged={() => {
              void load();
              setVersion((v) => v + 1);
            }}
          />
          <ShippingRates methods={methods} version={version} />
        </>
      )}
    </>
  );
}

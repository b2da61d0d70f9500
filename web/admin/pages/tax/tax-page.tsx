import { useEffect, useState } from 'preact/hooks';
import { ok } from '../../../api/client';
import { asProblem, type Problem } from '../../../shared/problem';
import { ErrorMessage } from '../../../shared/ui';
import { useDashboard } from '../../context';
import type { TaxClass } from '../common/tax-classes';
import { TaxClasses } from './tax-classes';
import { TaxRates } from './tax-rates';

/** /admin/tax: tax classes (create, rename, delete) and the rates of each class, and the default rates, by place. */
export function TaxPage() {
  const { api } = useDashboard();
  const [classes, setClasses] = useState<TaxClass[]>();
  const [problem, setProblem] = useState<Problem>();
  // Deleting a class deletes its rates: the rates section reloads when this changes.
  const [version, setVersion] = useState(0);

  const load = () =>
    ok(api.GET('/tax/dashboard/api/tax-classes/'))
      .then(setClasses)
      .catch((err: unknown) => setProblem(asProblem(err)));
  useEffect(() => {
    void load();
  }, []);

  return (
    <>
      <h1>Tax</h1>
      <ErrorMessage problem={problem} />
      {classes === undefined && problem === undefined && <p>Loading…</p>}
      {classes && (
        <>
          <TaxClasses
            classes={classes}
            onChanged={() => {
              void load();
              setVersion((v) => v + 1);
            }}
          />
          <TaxRates classes={classes} version={version} />
        </>
      )}
    </>
  );
}

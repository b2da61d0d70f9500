import { useState } from 'preact/hooks';
import { ErrorMessage } from '../../../shared/ui';
import { useTaxClasses } from '../common/tax-classes';
import { TaxClasses } from './tax-classes';
import { allRates, TaxRates, useTaxRates } from './tax-rates';

/** /admin/tax: tax classes (create, rename, delete) and the rates of each class, and the default rates, by place. */
export function TaxPage() {
  const classes = useTaxClasses();
  const [filter, setFilter] = useState(allRates);
  const rates = useTaxRates(filter);

  return (
    <>
      <h1>Tax</h1>
      <ErrorMessage problem={classes.problem} />
      {classes.data === undefined && classes.problem === undefined && <p>Loading…</p>}
      {classes.data && (
        <>
          <TaxClasses
            classes={classes.data}
            onChanged={() => {
              // Deleting a class deletes its rates: the rates are loaded again too.
              void classes.reload();
              void rates.reload();
            }}
          />
          <TaxRates classes={classes.data} rates={rates} filter={filter} onFilter={setFilter} />
        </>
      )}
    </>
  );
}

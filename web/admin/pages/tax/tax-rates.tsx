import { useEffect, useState } from 'preact/hooks';
import { ok } from '../../../api/client';
import { asProblem, type Problem } from '../../../shared/problem';
import { ErrorMessage, Field, SelectField } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { StatusMessage } from '../common/form-parts';
import { type TaxClass, taxClassName } from '../common/tax-classes';
import { useWrite } from '../common/use-write';
import { type TaxRate, TaxRateForm } from './tax-rate-form';

/** Which rates the table shows: every one, the default rates, or one class's. */
type ClassFilter = 'all' | 'null' | number;

/** Tax rates by class (or default) and place, filtered like the API filters them; edit, delete, create. */
export function TaxRates(props: { classes: TaxClass[]; version: number }) {
  const { api } = useDashboard();
  const [filter, setFilter] = useState<{ taxClass: ClassFilter; country: string }>({ taxClass: 'all', country: '' });
  const [rates, setRates] = useState<TaxRate[]>();
  const [problem, setProblem] = useState<Problem>();
  const [editing, setEditing] = useState<number>();
  const remove = useWrite();

  const load = () => {
    setProblem(undefined);
    const country = filter.country.trim();
    return ok(
      api.GET('/tax/dashboard/api/tax-rates/', {
        params: {
          query: {
            tax_class_id: filter.taxClass === 'all' ? undefined : filter.taxClass,
            country: country === '' ? undefined : country,
          },
        },
      }),
    )
      .then(setRates)
      .catch((err: unknown) => setProblem(asProblem(err)));
  };
  useEffect(() => {
    void load();
  }, [filter, props.version]);

  const deleteRate = (rate: TaxRate) =>
    void remove
      .run(async () => {
        await ok(api.DELETE('/tax/dashboard/api/tax-rates/{id}/', { params: { path: { id: rate.id } } }));
        if (editing === rate.id) setEditing(undefined);
        return `Tax rate ${rate.id} deleted.`;
      })
      .then((done) => {
        if (done) void load();
      });

  const editedRate = rates?.find((r) => r.id === editing);
  return (
    <section aria-labelledby="tax-rates-heading">
      <h2 id="tax-rates-heading">Tax rates</h2>
      <p class="muted">
        A default rate applies where a product's class has no rate of its own. Elsewhere nothing is taxed.
      </p>
      <div class="row filters">
        <SelectField
          label="Show rates of"
          value={String(filter.taxClass)}
          onChange={(e) => {
            const value = e.currentTarget.value;
            setFilter({ ...filter, taxClass: value === 'all' || value === 'null' ? value : Number(value) });
          }}
        >
          <option value="all">Every class and the defaults</option>
          <option value="null">Default rates only</option>
          {props.classes.map((c) => (
            <option key={c.id} value={String(c.id)}>
              Class {c.name}
            </option>
          ))}
        </SelectField>
        <Field
          label="Country filter"
          maxLength={2}
          value={filter.country}
          onChange={(e) => setFilter({ ...filter, country: e.currentTarget.value })}
          error={undefined}
        />
      </div>
      <ErrorMessage problem={problem} />
      <ErrorMessage problem={remove.problem} />
      <StatusMessage text={remove.status} />
      {rates === undefined && problem === undefined && <p>Loading…</p>}
      {rates?.length === 0 && <p>No tax rates here.</p>}
      {rates !== undefined && rates.length > 0 && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Applies to</th>
                <th>Place</th>
                <th class="num">Rate</th>
                <th>Active</th>
                <th>
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rates.map((rate) => {
                const place = rate.state ? `${rate.country}, ${rate.state}` : rate.country;
                return (
                  <tr key={rate.id}>
                    <td>{taxClassName(props.classes, rate.tax_class_id, 'Default')}</td>
                    <td>{place}</td>
                    <td class="num">{rate.rate} %</td>
                    <td>{rate.is_active ? 'Yes' : 'No'}</td>
                    <td class="row">
                      <button
                        type="button"
                        class="secondary"
                        aria-label={`Edit rate ${rate.id} (${place})`}
                        onClick={() => setEditing(rate.id)}
                      >
                        Edit
                      </button>
                      <button
                        type="button"
                        class="secondary"
                        aria-label={`Delete rate ${rate.id} (${place})`}
                        disabled={remove.busy}
                        onClick={() => deleteRate(rate)}
                      >
                        Delete
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {editedRate && (
        <TaxRateForm
          key={editedRate.id}
          rate={editedRate}
          classes={props.classes}
          onSaved={load}
          onClose={() => setEditing(undefined)}
        />
      )}
      <TaxRateForm classes={props.classes} onSaved={load} />
    </section>
  );
}

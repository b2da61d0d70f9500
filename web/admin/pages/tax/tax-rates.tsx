import { useState } from 'preact/hooks';
import { ok } from '../../../api/client';
import { ErrorMessage, Field, SelectField } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { type Loaded, useLoaded } from '../../use-loaded';
import { useWrite } from '../../use-write';
import { StatusMessage } from '../common/form-parts';
import { type TaxClass, taxClassName } from '../common/tax-classes';
import { type TaxRate, TaxRateForm } from './tax-rate-form';

/** Which rates the table shows: every one, the default rates, or one class's; and of which country. */
export interface RateFilter {
  taxClass: 'all' | 'null' | number;
  country: string;
}

export const allRates: RateFilter = { taxClass: 'all', country: '' };

/** The tax rates the filter picks, filtered like the API filters them. */
export function useTaxRates(filter: RateFilter): Loaded<TaxRate[]> {
  const { api } = useDashboard();
  const country = filter.country.trim();
  return useLoaded(
    () =>
      ok(
        api.GET('/tax/dashboard/api/tax-rates/', {
          params: {
            query: {
              tax_class_id: filter.taxClass === 'all' ? undefined : filter.taxClass,
              country: country === '' ? undefined : country,
            },
          },
        }),
      ),
    `${filter.taxClass} ${country}`,
  );
}

/** Tax rates by class (or default) and place: filter, edit, delete, create. */
export function TaxRates(props: {
  classes: TaxClass[];
  rates: Loaded<TaxRate[]>;
  filter: RateFilter;
  onFilter: (filter: RateFilter) => void;
}) {
  const { api } = useDashboard();
  const { filter, onFilter } = props;
  const { data: rates, problem, reload } = props.rates;
  const [editing, setEditing] = useState<number>();
  const remove = useWrite();

  const deleteRate = (rate: TaxRate) =>
    void remove
      .run(
        () =>
          ok(api.DELETE('/tax/dashboard/api/tax-rates/{id}/', { params: { path: { id: rate.id } } })).then(() => rate),
        (deleted) => `Tax rate ${deleted.id} deleted.`,
      )
      .then((deleted) => {
        if (!deleted) return;
        if (editing === deleted.id) setEditing(undefined);
        void reload();
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
            onFilter({ ...filter, taxClass: value === 'all' || value === 'null' ? value : Number(value) });
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
          onChange={(e) => onFilter({ ...filter, country: e.currentTarget.value })}
          error={undefined}
        />
      </div>
      <ErrorMessage problem={problem} />
      <ErrorMessage problem={remove.problem} />
      <StatusMessage text={remove.done} />
      {rates === undefined && problem === undefined && <p>Loading…</p>}
      {rates?.length === 0 && <p>No tax rates here.</p>}
      {rates !== undefined && rates.length > 0 && (
        <div class="table-wrap">
          <table class="reflow">
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
                    <td data-label="Applies to">{taxClassName(props.classes, rate.tax_class_id, 'Default')}</td>
                    <td data-label="Place">{place}</td>
                    <td data-label="Rate" class="num">
                      {rate.rate} %
                    </td>
                    <td data-label="Active">{rate.is_active ? 'Yes' : 'No'}</td>
                    <td data-label="Actions" class="row">
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
          onSaved={reload}
          onClose={() => setEditing(undefined)}
        />
      )}
      <TaxRateForm classes={props.classes} onSaved={reload} />
    </section>
  );
}

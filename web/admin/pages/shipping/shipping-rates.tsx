import { useState } from 'preact/hooks';
import { ok } from '../../../api/client';
import { ErrorMessage, Money, SelectField } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { type Loaded, useLoaded } from '../../use-loaded';
import { useWrite } from '../../use-write';
import { StatusMessage } from '../common/form-parts';
import type { ShippingMethod } from './shipping-methods';
import { type ShippingRate, ShippingRateForm } from './shipping-rate-form';

/** The shipping rates of one method, or of every method (undefined). */
export function useShippingRates(methodId: number | undefined): Loaded<ShippingRate[]> {
  const { api } = useDashboard();
  return useLoaded(
    () =>
      ok(api.GET('/shipping/dashboard/api/shipping-rates/', { params: { query: { shipping_method_id: methodId } } })),
    `${methodId ?? 'all'}`,
  );
}

/** Shipping rates, of every method or one: edit, delete, create. */
export function ShippingRates(props: {
  methods: ShippingMethod[];
  rates: Loaded<ShippingRate[]>;
  methodId: number | undefined;
  onMethod: (methodId: number | undefined) => void;
}) {
  const { api, currency } = useDashboard();
  const { methodId } = props;
  const { data: rates, problem, reload } = props.rates;
  const [editing, setEditing] = useState<number>();
  const remove = useWrite();

  const deleteRate = (rate: ShippingRate) =>
    void remove
      .run(
        () =>
          ok(api.DELETE('/shipping/dashboard/api/shipping-rates/{id}/', { params: { path: { id: rate.id } } })).then(
            () => rate,
          ),
        (deleted) => `Shipping rate ${deleted.id} deleted.`,
      )
      .then((deleted) => {
        if (!deleted) return;
        if (editing === deleted.id) setEditing(undefined);
        void reload();
      });

  const methodName = (id: number) => props.methods.find((m) => m.id === id)?.name ?? `method ${id}`;
  const edited = rates?.find((r) => r.id === editing);
  return (
    <section aria-labelledby="rates-heading">
      <h2 id="rates-heading">Shipping rates</h2>
      <p class="muted">
        Fee = base rate + per kg × (order weight − start weight). The most specific place wins: city, state, country,
        anywhere.
      </p>
      <SelectField
        label="Show rates of"
        value={methodId === undefined ? '' : String(methodId)}
        onChange={(e) => props.onMethod(e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value))}
      >
        <option value="">Every method</option>
        {props.methods.map((m) => (
          <option key={m.id} value={String(m.id)}>
            {m.name}
          </option>
        ))}
      </SelectField>
      <ErrorMessage problem={problem} />
      <ErrorMessage problem={remove.problem} />
      <StatusMessage text={remove.done} />
      {rates === undefined && problem === undefined && <p>Loading…</p>}
      {rates?.length === 0 && <p>No shipping rates here.</p>}
      {rates !== undefined && rates.length > 0 && (
        <div class="table-wrap">
          <table class="reflow">
            <thead>
              <tr>
                <th>Method</th>
                <th>Place</th>
                <th>Weight (kg)</th>
                <th>Base</th>
                <th>Per kg</th>
                <th>Other currencies</th>
                <th>
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rates.map((rate) => {
                const place = [rate.country, rate.state, rate.city].filter(Boolean).join(', ') || 'Anywhere';
                const weight =
                  rate.weight_max_kg === null
                    ? `from ${rate.weight_min_kg}`
                    : `${rate.weight_min_kg} to ${rate.weight_max_kg}`;
                return (
                  <tr key={rate.id}>
                    <td data-label="Method">{methodName(rate.shipping_method_id)}</td>
                    <td data-label="Place">{place}</td>
                    <td data-label="Weight (kg)">{weight}</td>
                    <td data-label="Base">
                      <Money amount={rate.base_rate} currency={currency} />
                    </td>
                    <td data-label="Per kg">
                      <Money amount={rate.per_kg_rate} currency={currency} />
                    </td>
                    <td data-label="Other currencies">
                      {rate.prices.length === 0
                        ? 'converted'
                        : rate.prices.map((p) => (
                            <div key={p.currency}>
                              <Money amount={p.base_rate} currency={p.currency} />
                              {!/^0+(\.0+)?$/.test(p.per_kg_rate) && (
                                <>
                                  {' + '}
                                  <Money amount={p.per_kg_rate} currency={p.currency} /> per kg
                                </>
                              )}
                            </div>
                          ))}
                    </td>
                    <td data-label="Actions" class="row">
                      <button
                        type="button"
                        class="secondary"
                        aria-label={`Edit shipping rate ${rate.id} (${place}, ${weight} kg)`}
                        onClick={() => setEditing(rate.id)}
                      >
                        Edit
                      </button>
                      <button
                        type="button"
                        class="secondary"
                        aria-label={`Delete shipping rate ${rate.id} (${place}, ${weight} kg)`}
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
      {edited && (
        <ShippingRateForm
          key={edited.id}
          rate={edited}
          methods={props.methods}
          onSaved={reload}
          onClose={() => setEditing(undefined)}
        />
      )}
      {props.methods.length > 0 && (
        <ShippingRateForm key={props.methods[0]?.id} methods={props.methods} onSaved={reload} />
      )}
    </section>
  );
}

import { useEffect, useState } from 'preact/hooks';
import { ok } from '../../../api/client';
import { asProblem, type Problem } from '../../../shared/problem';
import { ErrorMessage, Money, SelectField } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { StatusMessage } from '../common/form-parts';
import { useWrite } from '../common/use-write';
import type { ShippingMethod } from './shipping-methods';
import { type ShippingRate, ShippingRateForm } from './shipping-rate-form';

/** Shipping rates, of every method or one: edit, delete, create. */
export function ShippingRates(props: { methods: ShippingMethod[]; version: number }) {
  const { api, currency } = useDashboard();
  const [methodId, setMethodId] = useState<number>();
  const [rates, setRates] = useState<ShippingRate[]>();
  const [problem, setProblem] = useState<Problem>();
  const [editing, setEditing] = useState<number>();
  const remove = useWrite();

  const load = () => {
    setProblem(undefined);
    return ok(
      api.GET('/shipping/dashboard/api/shipping-rates/', { params: { query: { shipping_method_id: methodId } } }),
    )
      .then(setRates)
      .catch((err: unknown) => setProblem(asProblem(err)));
  };
  useEffect(() => {
    void load();
  }, [methodId, props.version]);

  const deleteRate = (rate: ShippingRate) =>
    void remove
      .run(async () => {
        await ok(api.DELETE('/shipping/dashboard/api/shipping-rates/{id}/', { params: { path: { id: rate.id } } }));
        if (editing === rate.id) setEditing(undefined);
        return `Shipping rate ${rate.id} deleted.`;
      })
      .then((done) => {
        if (done) void load();
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
        onChange={(e) => setMethodId(e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value))}
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
      <StatusMessage text={remove.status} />
      {rates === undefined && problem === undefined && <p>Loading…</p>}
      {rates?.length === 0 && <p>No shipping rates here.</p>}
      {rates !== undefined && rates.length > 0 && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Method</th>
                <th>Place</th>
                <th>Weight (kg)</th>
                <th>Base</th>
                <th>Per kg</th>
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
                    <td>{methodName(rate.shipping_method_id)}</td>
                    <td>{place}</td>
                    <td>{weight}</td>
                    <td>
                      <Money amount={rate.base_rate} currency={currency} />
                    </td>
                    <td>
                      <Money amount={rate.per_kg_rate} currency={currency} />
                    </td>
                    <td class="row">
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
          onSaved={load}
          onClose={() => setEditing(undefined)}
        />
      )}
      {props.methods.length > 0 && (
        <ShippingRateForm key={props.methods[0]?.id} methods={props.methods} onSaved={load} />
      )}
    </section>
  );
}

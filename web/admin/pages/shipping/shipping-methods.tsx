import { useState } from 'preact/hooks';
import { type Answer, ok } from '../../../api/client';
import { ErrorMessage } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { ConfirmButton } from '../common/confirm-button';
import { StatusMessage } from '../common/form-parts';
import { taxClassName, useTaxClasses } from '../common/tax-classes';
import { useWrite } from '../../use-write';
import { ShippingMethodForm } from './shipping-method-form';

export type ShippingMethod = Answer<'/shipping/dashboard/api/shipping-methods/', 'get'>[number];

/** The shipping methods, inactive ones too: edit, delete (with its rates), create. */
export function ShippingMethods(props: { methods: ShippingMethod[]; onChanged: () => void }) {
  const { api } = useDashboard();
  const { data: classes } = useTaxClasses();
  const [editing, setEditing] = useState<number>();
  const remove = useWrite();

  const deleteMethod = (method: ShippingMethod) =>
    void remove
      .run(
        () =>
          ok(
            api.DELETE('/shipping/dashboard/api/shipping-methods/{id}/', { params: { path: { id: method.id } } }),
          ).then(() => method),
        (deleted) => `Shipping method ${deleted.name} deleted, with its rates.`,
      )
      .then((deleted) => {
        if (!deleted) return;
        if (editing === deleted.id) setEditing(undefined);
        props.onChanged();
      });

  const edited = props.methods.find((m) => m.id === editing);
  return (
    <section aria-labelledby="methods-heading">
      <h2 id="methods-heading">Shipping methods</h2>
      <ErrorMessage problem={remove.problem} />
      <StatusMessage text={remove.done} />
      {props.methods.length === 0 && <p>No shipping methods yet.</p>}
      {props.methods.length > 0 && (
        <div class="table-wrap">
          <table class="reflow">
            <thead>
              <tr>
                <th>Name</th>
                <th>Description</th>
                <th>Tax class</th>
                <th>Active</th>
                <th>
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {props.methods.map((method) => (
                <tr key={method.id}>
                  <td data-label="Name">{method.name}</td>
                  <td data-label="Description">{method.description}</td>
                  <td data-label="Tax class">
                    {taxClassName(classes, method.tax_class_id, 'Highest rate of the lines')}
                  </td>
                  <td data-label="Active">{method.is_active ? 'Yes' : 'No'}</td>
                  <td data-label="Actions" class="row">
                    <button
                      type="button"
                      class="secondary"
                      aria-label={`Edit ${method.name}`}
                      onClick={() => setEditing(method.id)}
                    >
                      Edit
                    </button>
                    <ConfirmButton
                      label="Delete"
                      warning={`Its rates are deleted too (is_active off retires ${method.name} instead).`}
                      disabled={remove.busy}
                      onConfirm={() => deleteMethod(method)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {edited && (
        <ShippingMethodForm
          key={edited.id}
          method={edited}
          onSaved={props.onChanged}
          onClose={() => setEditing(undefined)}
        />
      )}
      <ShippingMethodForm onSaved={props.onChanged} />
    </section>
  );
}

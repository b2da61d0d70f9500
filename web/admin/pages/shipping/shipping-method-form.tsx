import { useState } from 'preact/hooks';
import { ok, type RequestBody } from '../../../api/client';
import { fieldError } from '../../../shared/problem';
import { Field } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { CheckboxField, FormFooter } from '../common/form-parts';
import { TaxClassSelect } from '../common/tax-class-select';
import { useWrite } from '../../use-write';
import type { ShippingMethod } from './shipping-methods';

type MethodBody = RequestBody<'/shipping/dashboard/api/shipping-methods/', 'post'>;
const blank: MethodBody = { name: '', description: '', is_active: true, tax_class_id: null };

/** A new shipping method (no `method`) or a change to one. */
export function ShippingMethodForm(props: { method?: ShippingMethod; onSaved: () => void; onClose?: () => void }) {
  const { api } = useDashboard();
  const { method } = props;
  const [body, setBody] = useState<MethodBody>(() =>
    method
      ? {
          name: method.name,
          description: method.description,
          is_active: method.is_active,
          tax_class_id: method.tax_class_id,
        }
      : blank,
  );
  const write = useWrite();
  const error = (field: keyof MethodBody) => fieldError(write.problem, field);

  const save = (event: Event) => {
    event.preventDefault();
    void write
      .run(
        () =>
          method
            ? ok(
                api.PATCH('/shipping/dashboard/api/shipping-methods/{id}/', {
                  params: { path: { id: method.id } },
                  body,
                }),
              )
            : ok(api.POST('/shipping/dashboard/api/shipping-methods/', { body })),
        (saved) => `Shipping method ${saved.name} ${method ? 'saved' : 'created'}.`,
      )
      .then((saved) => {
        if (!saved) return;
        if (!method) setBody(blank);
        props.onSaved();
      });
  };

  const title = method ? `Edit shipping method ${method.name}` : 'New shipping method';
  return (
    <form class="panel" onSubmit={save} noValidate aria-label={title}>
      <h3>{title}</h3>
      <div class="fields">
        <Field
          label="Method name"
          name="name"
          required
          value={body.name}
          onInput={(e) => setBody({ ...body, name: e.currentTarget.value })}
          error={error('name')}
        />
        <Field
          label="Description"
          name="description"
          hint="Shown to customers: 3 to 5 days"
          value={body.description ?? ''}
          onInput={(e) => setBody({ ...body, description: e.currentTarget.value })}
          error={error('description')}
        />
        <TaxClassSelect
          value={body.tax_class_id ?? null}
          onChange={(id) => setBody({ ...body, tax_class_id: id })}
          error={error('tax_class_id')}
          none="None (the highest rate of the order's lines)"
        />
        <CheckboxField
          label="Active"
          name="is_active"
          checked={body.is_active ?? true}
          onChange={(e) => setBody({ ...body, is_active: e.currentTarget.checked })}
          error={error('is_active')}
        />
      </div>
      <FormFooter
        write={write}
        submit={method ? 'Save shipping method' : 'Create shipping method'}
        onClose={props.onClose}
      />
    </form>
  );
}

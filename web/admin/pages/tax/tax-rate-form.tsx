import { useState } from 'preact/hooks';
import { type Answer, ok, type RequestBody } from '../../../api/client';
import { fieldError } from '../../../shared/problem';
import { Field, SelectField } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { CheckboxField, FormFooter } from '../common/form-parts';
import type { TaxClass } from '../common/tax-classes';
import { useWrite } from '../../use-write';

export type TaxRate = Answer<'/tax/dashboard/api/tax-rates/', 'get'>[number];
type RateBody = RequestBody<'/tax/dashboard/api/tax-rates/', 'post'>;

const blank: RateBody = { tax_class_id: null, country: '', state: '', rate: '', is_active: true };

/** A new tax rate (no `rate`) or a change to one: class or default, country, state, percent, active. */
export function TaxRateForm(props: { rate?: TaxRate; classes: TaxClass[]; onSaved: () => void; onClose?: () => void }) {
  const { api } = useDashboard();
  const { rate } = props;
  const [body, setBody] = useState<RateBody>(() =>
    rate
      ? {
          tax_class_id: rate.tax_class_id,
          country: rate.country,
          state: rate.state,
          rate: rate.rate,
          is_active: rate.is_active,
        }
      : blank,
  );
  const write = useWrite();
  const error = (field: keyof RateBody) => fieldError(write.problem, field);

  const save = (event: Event) => {
    event.preventDefault();
    void write
      .run(
        () =>
          rate
            ? ok(api.PATCH('/tax/dashboard/api/tax-rates/{id}/', { params: { path: { id: rate.id } }, body }))
            : ok(api.POST('/tax/dashboard/api/tax-rates/', { body })),
        (saved) => {
          const place = saved.state ? `${saved.country}-${saved.state}` : saved.country;
          return `Tax rate ${saved.rate} % for ${place} ${rate ? 'saved' : 'created'}.`;
        },
      )
      .then((saved) => {
        if (!saved) return;
        if (!rate) setBody(blank);
        props.onSaved();
      });
  };

  const title = rate ? `Edit tax rate ${rate.id}` : 'New tax rate';
  return (
    <form class="panel" onSubmit={save} noValidate aria-label={title}>
      <h3>{title}</h3>
      <div class="fields">
        <SelectField
          label="Applies to"
          name="tax_class_id"
          value={body.tax_class_id === null ? '' : String(body.tax_class_id)}
          onChange={(e) =>
            setBody({ ...body, tax_class_id: e.currentTarget.value === '' ? null : Number(e.currentTarget.value) })
          }
          error={error('tax_class_id')}
        >
          <option value="">Default rate (classes without a rate here)</option>
          {props.classes.map((c) => (
            <option key={c.id} value={String(c.id)}>
              Class {c.name}
            </option>
          ))}
        </SelectField>
        <Field
          label="Country"
          name="country"
          hint="Two letters: US, DE"
          maxLength={2}
          autoComplete="off"
          value={body.country}
          onInput={(e) => setBody({ ...body, country: e.currentTarget.value })}
          error={error('country')}
        />
        <Field
          label="State"
          name="state"
          hint="Blank: the whole country"
          value={body.state ?? ''}
          onInput={(e) => setBody({ ...body, state: e.currentTarget.value })}
          error={error('state')}
        />
        <Field
          label="Rate (%)"
          name="rate"
          inputMode="decimal"
          hint="0 to 100, up to 4 decimals"
          value={body.rate}
          onInput={(e) => setBody({ ...body, rate: e.currentTarget.value })}
          error={error('rate')}
        />
        <CheckboxField
          label="Active"
          name="is_active"
          checked={body.is_active ?? true}
          onChange={(e) => setBody({ ...body, is_active: e.currentTarget.checked })}
          error={error('is_active')}
        />
      </div>
      <FormFooter write={write} submit={rate ? 'Save tax rate' : 'Create tax rate'} onClose={props.onClose} />
    </form>
  );
}

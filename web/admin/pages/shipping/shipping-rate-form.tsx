import { useState } from 'preact/hooks';
import { type Answer, ok, type RequestBody } from '../../../api/client';
import { fieldError } from '../../../shared/problem';
import { Field, SelectField } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { FormFooter } from '../common/form-parts';
import { textOrNull } from '../common/form-values';
import { useWrite } from '../../use-write';
import { RatePricesFields, type RatePriceText, ratePricesBody, ratePriceText } from './rate-prices-fields';
import type { ShippingMethod } from './shipping-methods';

export type ShippingRate = Answer<'/shipping/dashboard/api/shipping-rates/', 'get'>[number];
type RateBody = RequestBody<'/shipping/dashboard/api/shipping-rates/', 'post'>;
/** The form as typed: a blank maximum weight means no upper limit (null); the amounts per currency as rows. */
type RateDraft = Omit<RateBody, 'weight_max_kg' | 'prices'> & { weight_max_kg: string; prices: RatePriceText[] };

const blank = (methodId: number): RateDraft => ({
  shipping_method_id: methodId,
  country: '',
  state: '',
  city: '',
  weight_min_kg: '0',
  weight_max_kg: '',
  base_rate: '',
  per_kg_rate: '0',
  prices: [],
});

/** A new shipping rate (no `rate`) or a change to one: its method, place, weight bracket and prices. */
export function ShippingRateForm(props: {
  rate?: ShippingRate;
  methods: ShippingMethod[];
  onSaved: () => void;
  onClose?: () => void;
}) {
  const { api, currency } = useDashboard();
  const { rate, methods } = props;
  const [draft, setDraft] = useState<RateDraft>(() =>
    rate
      ? {
          shipping_method_id: rate.shipping_method_id,
          country: rate.country,
          state: rate.state,
          city: rate.city,
          weight_min_kg: rate.weight_min_kg,
          weight_max_kg: rate.weight_max_kg ?? '',
          base_rate: rate.base_rate,
          per_kg_rate: rate.per_kg_rate,
          prices: rate.prices.map(ratePriceText),
        }
      : blank(methods[0]?.id ?? 0),
  );
  const write = useWrite();
  const error = (field: keyof RateBody) => fieldError(write.problem, field);
  const text = (
    field: 'country' | 'state' | 'city' | 'weight_min_kg' | 'weight_max_kg' | 'base_rate' | 'per_kg_rate',
  ) => ({
    name: field,
    value: draft[field] ?? '',
    error: error(field),
    onInput: (e: { currentTarget: HTMLInputElement }) => setDraft({ ...draft, [field]: e.currentTarget.value }),
  });

  const save = (event: Event) => {
    event.preventDefault();
    const body: RateBody = {
      shipping_method_id: draft.shipping_method_id,
      country: draft.country,
      state: draft.state,
      city: draft.city,
      weight_min_kg: draft.weight_min_kg,
      weight_max_kg: textOrNull(draft.weight_max_kg),
      base_rate: draft.base_rate,
      per_kg_rate: draft.per_kg_rate,
      prices: ratePricesBody(draft.prices),
    };
    void write
      .run(
        () =>
          rate
            ? ok(api.PATCH('/shipping/dashboard/api/shipping-rates/{id}/', { params: { path: { id: rate.id } }, body }))
            : ok(api.POST('/shipping/dashboard/api/shipping-rates/', { body })),
        (saved) => `Shipping rate ${saved.id} ${rate ? 'saved' : 'created'}.`,
      )
      .then((saved) => {
        if (!saved) return;
        if (!rate) setDraft(blank(draft.shipping_method_id));
        props.onSaved();
      });
  };

  const title = rate ? `Edit shipping rate ${rate.id}` : 'New shipping rate';
  const money = { inputMode: 'decimal' as const, autoComplete: 'off' };
  return (
    <form class="panel" onSubmit={save} noValidate aria-label={title}>
      <h3>{title}</h3>
      <div class="fields">
        <SelectField
          label="Shipping method"
          name="shipping_method_id"
          value={String(draft.shipping_method_id)}
          onChange={(e) => setDraft({ ...draft, shipping_method_id: Number(e.currentTarget.value) })}
          error={error('shipping_method_id')}
        >
          {methods.map((m) => (
            <option key={m.id} value={String(m.id)}>
              {m.name}
            </option>
          ))}
        </SelectField>
        <Field label="Country" hint="Two letters; blank: any" maxLength={2} autoComplete="off" {...text('country')} />
        <Field label="State" hint="Blank: any" {...text('state')} />
        <Field label="City" hint="Blank: any" {...text('city')} />
        <Field label="From weight (kg)" inputMode="decimal" {...text('weight_min_kg')} />
        <Field label="Up to weight (kg)" inputMode="decimal" hint="Blank: no limit" {...text('weight_max_kg')} />
        <Field label={`Base rate (${currency})`} {...money} {...text('base_rate')} />
        <Field label={`Per kg above the start (${currency})`} {...money} {...text('per_kg_rate')} />
      </div>
      <RatePricesFields
        id={`rate-${rate?.id ?? 'new'}-prices`}
        rows={draft.prices}
        onChange={(prices) => setDraft({ ...draft, prices })}
        problem={write.problem}
      />
      <FormFooter
        write={write}
        submit={rate ? 'Save shipping rate' : 'Create shipping rate'}
        disabled={methods.length === 0}
        onClose={props.onClose}
      />
    </form>
  );
}

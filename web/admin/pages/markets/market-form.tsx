import { useState } from 'preact/hooks';
import { type Answer, ok } from '../../../api/client';
import { fieldError, problemBeyondFields } from '../../../shared/problem';
import { ErrorMessage, Field, SelectField } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { useWrite } from '../../use-write';
import { CheckboxField, StatusMessage } from '../common/form-parts';
import {
  BLANK_MARKET,
  type Market,
  type MarketText,
  marketPatch,
  marketProblem,
  marketText,
  newMarketBody,
  ROUNDING_DIRECTIONS,
  type RoundingDirection,
} from './market-draft';
import { roundingExample } from './rounding-example';

export type Plugin = Answer<'/payment/storefront/api/plugins/', 'get'>[number];
export type ShippingMethod = Answer<'/shipping/dashboard/api/shipping-methods/', 'get'>[number];

const FIELDS = [
  'code',
  'name',
  'currency',
  'prices_include_tax',
  'exchange_rate',
  'rounding_step',
  'price_ending',
  'rounding_direction',
  'countries',
  'payment_plugins',
  'shipping_method_ids',
];

/** Adds `item` to a list or takes it out. */
function toggled<T>(list: T[], item: T, on: boolean): T[] {
  return on ? [...list.filter((x) => x !== item), item] : list.filter((x) => x !== item);
}

/** A group of checkboxes with its legend, what none ticked means, and the API's error for the list. */
function Choices<T extends string | number>(props: {
  legend: string;
  none: string;
  options: { value: T; label: string }[];
  chosen: T[];
  onChange: (chosen: T[]) => void;
  error: string | undefined;
}) {
  return (
    <fieldset class="field choices">
      <legend>{props.legend}</legend>
      <small class="hint">{props.none}</small>
      {props.options.map((option) => (
        <CheckboxField
          key={option.value}
          label={option.label}
          checked={props.chosen.includes(option.value)}
          onChange={(e) => props.onChange(toggled(props.chosen, option.value, e.currentTarget.checked))}
        />
      ))}
      {props.error && <small class="field-error">{props.error}</small>}
    </fieldset>
  );
}

/** "25.00 USD is 23.00 EUR at this rate, 22.99 EUR with this rule", worked out as the service does. */
function RoundingExampleLine(props: { text: MarketText; storeCurrency: string }) {
  const example = roundingExample(props.text, { currency: props.storeCurrency, price: '25.00' });
  if (!example) return null;
  return (
    <p class="muted" aria-live="polite">
      Example: {example.from} is {example.exact} {example.currency} at this rate; customers see{' '}
      <strong>
        {example.rounded} {example.currency}
      </strong>{' '}
      with this rounding (a product without an explicit {example.currency} price).
    </p>
  );
}

/** A new market (no `market`) or a change to one; the default market's currency and rule follow the environment. */
export function MarketForm(props: {
  market?: Market;
  storeCurrency: string;
  plugins: Plugin[];
  methods: ShippingMethod[];
  onSaved: (saved: Market) => void;
  onClose?: () => void;
}) {
  const { api } = useDashboard();
  const { market } = props;
  const [text, setText] = useState<MarketText>(() => (market ? marketText(market) : BLANK_MARKET));
  const write = useWrite();
  const problem = marketProblem(write.problem);
  const error = (field: string) => fieldError(problem, field);
  const fixed = market?.is_default === true;
  const input = (field: keyof MarketText & string) => ({
    name: field,
    value: String(text[field]),
    error: error(field),
    disabled: fixed && !['code', 'name', 'countries'].includes(field),
    onInput: (e: { currentTarget: HTMLInputElement }) => setText({ ...text, [field]: e.currentTarget.value }),
  });

  const save = (event: Event) => {
    event.preventDefault();
    void write
      .run(
        () =>
          market
            ? ok(
                api.PATCH('/market/dashboard/api/markets/{id}/', {
                  params: { path: { id: market.id } },
                  body: marketPatch(market, text),
                }),
              )
            : ok(api.POST('/market/dashboard/api/markets/', { body: newMarketBody(text) })),
        (saved) => `Market ${saved.name} (${saved.code}) ${market ? 'saved' : 'created'}.`,
      )
      .then((saved) => {
        if (!saved) return;
        if (!market) setText(BLANK_MARKET);
        props.onSaved(saved);
      });
  };

  const title = market ? `Edit market ${market.name}` : 'New market';
  return (
    <form class="panel" onSubmit={save} noValidate aria-label={title}>
      <h2>{title}</h2>
      <div class="fields">
        <Field label="Code" hint="eu, us: letters, digits, _ and -" {...input('code')} />
        <Field label="Market name" hint="Shown to customers: Europe" {...input('name')} />
        <Field
          label="Currency"
          hint={fixed ? 'The store currency (STORE_CURRENCY)' : 'ISO 4217: EUR, JPY, KWD'}
          autocapitalize="characters"
          {...input('currency')}
        />
        <CheckboxField
          label="Prices include tax"
          name="prices_include_tax"
          checked={text.prices_include_tax}
          disabled={fixed}
          onChange={(e) => setText({ ...text, prices_include_tax: e.currentTarget.checked })}
          error={error('prices_include_tax')}
        />
        <Field
          label="Exchange rate"
          inputMode="decimal"
          hint={`How many of the market's currency one ${props.storeCurrency} buys, exact: 0.92`}
          {...input('exchange_rate')}
        />
        <Field
          label="Rounding step"
          inputMode="decimal"
          hint="Blank: none beyond the currency's precision; 1: whole units; 100: hundreds of yen"
          {...input('rounding_step')}
        />
        <Field
          label="Price ending"
          inputMode="decimal"
          hint="Below the step: 0.99, 0.95, 0"
          {...input('price_ending')}
        />
        <SelectField
          label="Rounding direction"
          name="rounding_direction"
          value={text.rounding_direction}
          disabled={fixed}
          error={error('rounding_direction')}
          onChange={(e) => setText({ ...text, rounding_direction: e.currentTarget.value as RoundingDirection })}
        >
          {ROUNDING_DIRECTIONS.map((d) => (
            <option key={d.value} value={d.value}>
              {d.label}
            </option>
          ))}
        </SelectField>
        <Field
          label="Countries"
          hint={
            fixed
              ? 'ISO codes, DE, FR; the default market also serves every country no other market lists'
              : 'ISO codes separated by commas: DE, FR, IT'
          }
          autocapitalize="characters"
          {...input('countries')}
        />
      </div>
      {fixed ? (
        <p class="muted">
          The default market is the store itself: its currency, tax inclusivity and prices follow STORE_CURRENCY and
          PRICES_INCLUDE_TAX.
        </p>
      ) : (
        <RoundingExampleLine text={text} storeCurrency={props.storeCurrency} />
      )}
      <div class="fields">
        <Choices
          legend="Payment methods offered"
          none="None ticked: every enabled method."
          options={props.plugins.map((p) => ({ value: p.id, label: p.name }))}
          chosen={text.payment_plugins}
          onChange={(payment_plugins) => setText({ ...text, payment_plugins })}
          error={error('payment_plugins')}
        />
        <Choices
          legend="Shipping methods offered"
          none="None ticked: every active method."
          options={props.methods.map((m) => ({ value: m.id, label: m.is_active ? m.name : `${m.name} (inactive)` }))}
          chosen={text.shipping_method_ids}
          onChange={(shipping_method_ids) => setText({ ...text, shipping_method_ids })}
          error={error('shipping_method_ids')}
        />
      </div>
      <ErrorMessage problem={problemBeyondFields(problem, FIELDS)} />
      <StatusMessage text={write.done} />
      <div class="row">
        <button type="submit" disabled={write.busy}>
          {market ? 'Save market' : 'Create market'}
        </button>
        {props.onClose && (
          <button type="button" class="secondary" onClick={props.onClose}>
            Close
          </button>
        )}
      </div>
    </form>
  );
}

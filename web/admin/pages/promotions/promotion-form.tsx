import { useState } from 'preact/hooks';
import { fieldError } from '../../../shared/problem';
import { ErrorMessage, Field } from '../../../shared/ui';
import { CheckboxField, StatusMessage } from '../common/form-parts';
import { useWrite } from '../../use-write';
import { ActionFields } from './action-fields';
import { ConditionFields } from './condition-fields';
import { emptyCondition, type Promotion, type PromotionDraft, promotionBody } from './promotion-draft';
import type { PromotionBody } from './promotion-kinds';

const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * A promotion's whole form: what it is, when, how it combines, its limits, its conditions and its action. `onSave`
 * sends the body and resolves to the sentence that says it worked; the API's errors land beside their fields.
 */
export function PromotionForm(props: {
  initial: PromotionDraft;
  /** The promotion as stored, when editing one. */
  stored?: Promotion;
  readOnly?: boolean;
  submitLabel: string;
  onSave: (body: PromotionBody) => Promise<string>;
}) {
  const [draft, setDraft] = useState(props.initial);
  const write = useWrite();
  const problem = write.problem;
  const set = (change: Partial<PromotionDraft>) => setDraft({ ...draft, ...change });
  const text = (
    field:
      | 'name'
      | 'code'
      | 'starts_at'
      | 'expires_at'
      | 'priority'
      | 'redemption_limit'
      | 'usage_limit_per_customer'
      | 'specific_customers',
  ) => ({
    name: field,
    value: draft[field],
    error: fieldError(problem, field),
    onInput: (e: { currentTarget: HTMLInputElement }) => set({ [field]: e.currentTarget.value }),
  });

  const save = (event: Event) => {
    event.preventDefault();
    void write.run(
      () => props.onSave(promotionBody(draft, props.stored)),
      (said) => said,
    );
  };

  return (
    <form onSubmit={save} noValidate aria-label="Promotion">
      <fieldset class="plain" disabled={props.readOnly}>
        <fieldset class="panel">
          <legend>Promotion</legend>
          <div class="fields">
            <Field label="Name" hint="Shown on the order" required {...text('name')} />
            <Field
              label="Code"
              hint="Blank: automatic, for every order that qualifies"
              autoComplete="off"
              {...text('code')}
            />
            <CheckboxField
              label="Active"
              name="is_active"
              checked={draft.is_active}
              onChange={(e) => set({ is_active: e.currentTarget.checked })}
              error={fieldError(problem, 'is_active')}
            />
          </div>
        </fieldset>
        <fieldset class="panel">
          <legend>When</legend>
          <p class="hint">Times are in your time zone ({timeZone}); blank: no bound.</p>
          <div class="fields">
            <Field label="Starts" type="datetime-local" {...text('starts_at')} />
            <Field label="Ends" type="datetime-local" {...text('expires_at')} />
          </div>
        </fieldset>
        <fieldset class="panel">
          <legend>Combining</legend>
          <div class="fields">
            <Field label="Priority" type="number" step="1" hint="Higher applies first" {...text('priority')} />
            <CheckboxField
              label="Combines with other promotions"
              name="combinable"
              checked={draft.combinable}
              onChange={(e) => set({ combinable: e.currentTarget.checked })}
              error={fieldError(problem, 'combinable')}
            />
          </div>
          <p class="hint">An exclusive promotion applies alone, when it gives more than the others together.</p>
        </fieldset>
        <fieldset class="panel">
          <legend>Limits</legend>
          <div class="fields">
            <Field
              label="Uses in all"
              type="number"
              min="1"
              step="1"
              hint="Blank: unlimited"
              {...text('redemption_limit')}
            />
            <Field
              label="Uses per customer"
              type="number"
              min="1"
              step="1"
              hint="Blank: unlimited"
              {...text('usage_limit_per_customer')}
            />
            <Field
              label="Only these customers (user ids)"
              hint="Commas between; blank: anyone"
              autoComplete="off"
              {...text('specific_customers')}
            />
            <CheckboxField
              label="First order only"
              name="new_customers_only"
              checked={draft.new_customers_only}
              onChange={(e) => set({ new_customers_only: e.currentTarget.checked })}
              error={fieldError(problem, 'new_customers_only')}
            />
          </div>
        </fieldset>
        <fieldset class="panel">
          <legend>Conditions</legend>
          {draft.conditions.length === 0 && <p class="hint">None: every order qualifies.</p>}
          {draft.conditions.map((condition, i) => (
            <ConditionFields
              // Conditions have no id; their place is what the API's errors name them by.
              key={i}
              index={i}
              draft={condition}
              problem={problem}
              onChange={(changed) => set({ conditions: draft.conditions.map((c, j) => (j === i ? changed : c)) })}
              onRemove={() => set({ conditions: draft.conditions.filter((_, j) => j !== i) })}
            />
          ))}
          <button
            type="button"
            class="secondary"
            onClick={() => set({ conditions: [...draft.conditions, emptyCondition('min_subtotal')] })}
          >
            Add condition
          </button>
        </fieldset>
        <fieldset class="panel">
          <legend>What it gives</legend>
          <ActionFields draft={draft.action} problem={problem} onChange={(action) => set({ action })} />
        </fieldset>
        <ErrorMessage problem={problem} />
        <StatusMessage text={write.done} />
        <button type="submit" disabled={write.busy}>
          {props.submitLabel}
        </button>
      </fieldset>
    </form>
  );
}

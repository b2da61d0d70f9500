import { fieldError, type Problem } from '../../../shared/problem';
import { Field, SelectField } from '../../../shared/ui';
import { useDashboard } from '../../context';
import type { ConditionDraft } from './promotion-draft';
import { type ConditionField, type ConditionKind, conditionFields, conditionKinds } from './promotion-kinds';

/** How each field of a condition is asked for; `kind` tells what its products mean. */
function conditionInput(field: ConditionField, kind: ConditionKind, currency: string) {
  switch (field) {
    case 'amount':
      return {
        label: `Minimum subtotal (${currency})`,
        hint: 'Before discounts; reached when equal',
        inputMode: 'decimal',
      };
    case 'quantity':
      return { label: 'Units at least', type: 'number', min: '1', step: '1' };
    case 'products':
      return kind === 'contains_products'
        ? { label: 'Product ids', hint: 'Any of them in the order; commas between' }
        : { label: 'Counted product ids', hint: 'Commas between; blank: every product' };
  }
}

/** One condition of a promotion: its kind, and the fields of that kind, each with the API's error beside it. */
export function ConditionFields(props: {
  index: number;
  draft: ConditionDraft;
  onChange: (draft: ConditionDraft) => void;
  onRemove: () => void;
  problem: Problem | undefined;
}) {
  const { index, draft, onChange, problem } = props;
  const { currency } = useDashboard();
  const at = `conditions[${index}]`;
  const legend = `Condition ${index + 1}`;
  return (
    <fieldset class="panel">
      <legend>{legend}</legend>
      <div class="fields">
        <SelectField
          label="Holds when"
          value={draft.type}
          onChange={(e) => onChange({ ...draft, type: e.currentTarget.value as ConditionKind })}
          error={fieldError(problem, `${at}.type`)}
        >
          {Object.entries(conditionKinds).map(([kind, label]) => (
            <option key={kind} value={kind}>
              {label}
            </option>
          ))}
        </SelectField>
        {conditionFields[draft.type].map((field) => (
          <Field
            key={field}
            name={`${at}.${field}`}
            autoComplete="off"
            {...conditionInput(field, draft.type, currency)}
            value={draft[field]}
            onInput={(e) => onChange({ ...draft, [field]: e.currentTarget.value })}
            error={fieldError(problem, `${at}.${field}`)}
          />
        ))}
      </div>
      <button type="button" class="secondary" aria-label={`Remove condition ${index + 1}`} onClick={props.onRemove}>
        Remove condition
      </button>
    </fieldset>
  );
}

import { fieldError, type Problem } from '../../../shared/problem';
import { Field, SelectField } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { CheckboxField } from '../common/form-parts';
import type { ActionDraft } from './promotion-draft';
import { type ActionField, type ActionKind, actionFields, actionKinds } from './promotion-kinds';

type TextField = Exclude<ActionField, 'repeat'>;

/** How each text field of an action is asked for; some read differently by kind. */
function actionInput(field: TextField, kind: ActionKind, currency: string) {
  const ids = { hint: 'Commas between; blank: every product', autoComplete: 'off' };
  const units = { type: 'number', min: '1', step: '1' };
  switch (field) {
    case 'percent':
      return kind === 'buy_x_get_y'
        ? { label: 'Percent off the rewarded units', hint: '100: free', inputMode: 'decimal' }
        : { label: 'Percent off', hint: 'Above 0, up to 100, at most 4 decimals', inputMode: 'decimal' };
    case 'amount': {
      const what = kind === 'item_fixed' ? 'each unit' : kind === 'shipping_fixed' ? 'shipping' : 'the lines';
      return { label: `Amount off ${what} (${currency})`, inputMode: 'decimal', autoComplete: 'off' };
    }
    case 'products':
      return { label: 'Product ids it acts on', ...ids };
    case 'max_units':
      return { label: 'At most units', hint: 'The cheapest first; blank: every unit', ...units };
    case 'buy_quantity':
      return { label: 'Units to buy', ...units };
    case 'buy_products':
      return { label: 'Bought product ids', ...ids };
    case 'get_quantity':
      return { label: 'Units rewarded', ...units };
    case 'get_products':
      return { label: 'Rewarded product ids', ...ids };
  }
}

/** A promotion's action: its kind, and the fields of that kind (they change with it), errors beside them. */
export function ActionFields(props: {
  draft: ActionDraft;
  onChange: (draft: ActionDraft) => void;
  problem: Problem | undefined;
}) {
  const { draft, onChange, problem } = props;
  const { currency } = useDashboard();
  return (
    <div class="fields">
      <SelectField
        label="Discount"
        name="action.type"
        value={draft.type}
        onChange={(e) => onChange({ ...draft, type: e.currentTarget.value as ActionKind })}
        error={fieldError(problem, 'action.type')}
      >
        {Object.entries(actionKinds).map(([kind, label]) => (
          <option key={kind} value={kind}>
            {label}
          </option>
        ))}
      </SelectField>
      {actionFields[draft.type].map((field) =>
        field === 'repeat' ? (
          <CheckboxField
            key={field}
            label="Repeat for every group bought"
            name="action.repeat"
            checked={draft.repeat}
            onChange={(e) => onChange({ ...draft, repeat: e.currentTarget.checked })}
            error={fieldError(problem, 'action.repeat')}
          />
        ) : (
          <Field
            key={field}
            name={`action.${field}`}
            {...actionInput(field, draft.type, currency)}
            value={draft[field]}
            onInput={(e) => onChange({ ...draft, [field]: e.currentTarget.value })}
            error={fieldError(problem, `action.${field}`)}
          />
        ),
      )}
    </div>
  );
}

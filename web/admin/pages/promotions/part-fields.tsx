import { Fragment } from 'preact';
import { fieldError, type Problem } from '../../../shared/problem';
import { Field, SelectField } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { CheckboxField } from '../common/form-parts';
import { CurrencyAmountsFields } from './currency-amounts-fields';
import { fieldInput, fieldsOf, type KindDescription, type PartDraft } from './part-draft';

/**
 * A condition's or the action's kind, and the inputs of that kind's fields (they change with it), each with the API's
 * error beside it. `at` is how the API names the part in its errors (`action`, `conditions[1]`).
 */
export function PartFields<K extends string>(props: {
  kinds: readonly KindDescription[];
  /** The label of the kind's select ("Discount"), and its name if the form names it. */
  select: { label: string; name?: string };
  at: string;
  draft: PartDraft<K>;
  onChange: (draft: PartDraft<K>) => void;
  problem: Problem | undefined;
}) {
  const { kinds, select, at, draft, onChange, problem } = props;
  const { currency } = useDashboard();
  const kind = kinds.find((k) => k.type === draft.type);
  return (
    <div class="fields">
      <SelectField
        label={select.label}
        name={select.name}
        value={draft.type}
        onChange={(e) => onChange({ ...draft, type: e.currentTarget.value as K })}
        error={fieldError(problem, `${at}.type`)}
      >
        {kinds.map((k) => (
          <option key={k.type} value={k.type}>
            {k.label}
          </option>
        ))}
      </SelectField>
      {kind
        && fieldsOf(kind).map(([name, field]) =>
          field.sort === 'flag' ? (
            <CheckboxField
              key={name}
              label={field.label}
              name={`${at}.${name}`}
              checked={draft.flags[name] ?? field.default}
              onChange={(e) => onChange({ ...draft, flags: { ...draft.flags, [name]: e.currentTarget.checked } })}
              error={fieldError(problem, `${at}.${name}`)}
            />
          ) : (
            <Fragment key={name}>
              <Field
                name={`${at}.${name}`}
                {...fieldInput(field, currency)}
                value={draft.text[name] ?? ''}
                onInput={(e) => onChange({ ...draft, text: { ...draft.text, [name]: e.currentTarget.value } })}
                error={fieldError(problem, `${at}.${name}`)}
              />
              {field.sort === 'money' && (
                <CurrencyAmountsFields
                  at={at}
                  name={name}
                  label={field.label}
                  rows={draft.amounts[name] ?? []}
                  onChange={(rows) => onChange({ ...draft, amounts: { ...draft.amounts, [name]: rows } })}
                  problem={problem}
                />
              )}
            </Fragment>
          ),
        )}
    </div>
  );
}

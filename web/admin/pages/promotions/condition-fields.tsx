import type { Problem } from '../../../shared/problem';
import { PartFields } from './part-fields';
import type { ConditionDraft } from './promotion-draft';
import { conditionKinds } from './promotion-kinds';

/** One condition of a promotion: its kind, and the fields of that kind, each with the API's error beside it. */
export function ConditionFields(props: {
  index: number;
  draft: ConditionDraft;
  onChange: (draft: ConditionDraft) => void;
  onRemove: () => void;
  problem: Problem | undefined;
}) {
  const { index, draft, onChange, problem } = props;
  const legend = `Condition ${index + 1}`;
  return (
    <fieldset class="panel">
      <legend>{legend}</legend>
      <PartFields
        kinds={conditionKinds}
        select={{ label: 'Holds when' }}
        at={`conditions[${index}]`}
        draft={draft}
        onChange={onChange}
        problem={problem}
      />
      <button type="button" class="secondary" aria-label={`Remove condition ${index + 1}`} onClick={props.onRemove}>
        Remove condition
      </button>
    </fieldset>
  );
}

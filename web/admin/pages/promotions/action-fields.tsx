import type { Problem } from '../../../shared/problem';
import { PartFields } from './part-fields';
import type { ActionDraft } from './promotion-draft';
import { actionKinds } from './promotion-kinds';

/** A promotion's action: its kind, and the fields of that kind (they change with it), errors beside them. */
export function ActionFields(props: {
  draft: ActionDraft;
  onChange: (draft: ActionDraft) => void;
  problem: Problem | undefined;
}) {
  return (
    <PartFields
      kinds={actionKinds}
      select={{ label: 'Discount', name: 'action.type' }}
      at="action"
      draft={props.draft}
      onChange={props.onChange}
      problem={props.problem}
    />
  );
}

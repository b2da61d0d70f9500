import type { Problem } from '../shared/problem';
import { ErrorMessage } from '../shared/ui';

/**
 * What a write ended with: its confirmation in a status region (kept in the page, empty until there is something to
 * say, so screen readers announce it), or its problem in words. Pass `problem` only when no field shows it.
 */
export function Outcome(props: { done: string | undefined; problem?: Problem | undefined }) {
  return (
    <>
      <p role="status" class="ok">
        {props.done}
      </p>
      <ErrorMessage problem={props.problem} />
    </>
  );
}

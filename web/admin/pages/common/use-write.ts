import { useState } from 'preact/hooks';
import { asProblem, type Problem } from '../../../shared/problem';
import { FormErrors } from './form-values';

/**
 * One form's write: `run` clears the last outcome, awaits the request, and keeps either the sentence it resolves to
 * (shown with `StatusMessage`) or the problem it failed with (shown with `ErrorMessage` and beside the fields).
 */
export function useWrite() {
  const [problem, setProblem] = useState<Problem>();
  const [status, setStatus] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function run(write: () => Promise<string>): Promise<boolean> {
    setBusy(true);
    setProblem(undefined);
    setStatus(undefined);
    try {
      setStatus(await write());
      return true;
    } catch (err) {
      setProblem(err instanceof FormErrors ? err.problem() : asProblem(err));
      return false;
    } finally {
      setBusy(false);
    }
  }

  return { problem, status, busy, run, setStatus };
}

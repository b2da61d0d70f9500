import { useRef, useState } from 'preact/hooks';
import { asProblem, type Problem } from '../shared/problem';
import { FormErrors } from './pages/common/form-values';

/** The state of a form or button that changes something: busy, then done (in words) or failed (a problem). */
export interface Write {
  /** A write is under way: its buttons are disabled. */
  busy: boolean;
  /** What the last write did, in words (shown with role="status"). */
  done: string | undefined;
  /**
   * Why the last write failed: the API's problem+json, or the form's own refusal (`FormErrors`), shown like the API's
   * 422 beside the fields it names.
   */
  problem: Problem | undefined;
  /**
   * Runs `write`: on success keeps `said(answer)` as `done` and resolves to the answer; on failure keeps the problem
   * and resolves to undefined. A write must answer something (a DELETE resolves to what it deleted), so undefined
   * always means it failed. A write while one is under way is ignored (a double click sends once).
   */
  run<T extends NonNullable<unknown>>(write: () => Promise<T>, said?: (answer: T) => string): Promise<T | undefined>;
  /** Says what was done where this write's outcome is shown (a row whose own form was removed with it). */
  say(text: string): void;
  /** Forgets the last outcome. */
  reset(): void;
}

/** The one way a dashboard form or button writes: `const write = useWrite(); … write.run(() => ok(api.POST(…)))`. */
export function useWrite(): Write {
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string>();
  const [problem, setProblem] = useState<Problem>();
  const running = useRef(false);
  return {
    busy,
    done,
    problem,
    async run(write, said) {
      if (running.current) return undefined;
      running.current = true;
      setBusy(true);
      setDone(undefined);
      setProblem(undefined);
      try {
        const answer = await write();
        setDone(said?.(answer));
        return answer;
      } catch (err) {
        setProblem(err instanceof FormErrors ? err.problem() : asProblem(err));
        return undefined;
      } finally {
        running.current = false;
        setBusy(false);
      }
    },
    say: setDone,
    reset() {
      setDone(undefined);
      setProblem(undefined);
    },
  };
}

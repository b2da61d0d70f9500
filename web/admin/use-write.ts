import { useRef, useState } from 'preact/hooks';
import { asProblem, type Problem } from '../shared/problem';

export interface Write {
  busy: boolean;
  /** What the last write did, in words (shown with role="status"). */
  done: string | undefined;
  /** Why the last write failed. */
  problem: Problem | undefined;
  /**
   * Runs `write`; on success says `success(answer)` and resolves to the answer, on failure keeps the problem and
   * resolves to undefined. A write while one is under way is ignored (a double click sends once).
   */
  run<T>(write: () => Promise<T>, success: (answer: T) => string): Promise<T | undefined>;
  reset(): void;
}

/** The state of a form or button that changes something: busy, then done or failed. */
export function useWrite(): Write {
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string>();
  const [problem, setProblem] = useState<Problem>();
  const running = useRef(false);
  return {
    busy,
    done,
    problem,
    async run(write, success) {
      if (running.current) return undefined;
      running.current = true;
      setBusy(true);
      setDone(undefined);
      setProblem(undefined);
      try {
        const answer = await write();
        setDone(success(answer));
        return answer;
      } catch (err) {
        setProblem(asProblem(err));
        return undefined;
      } finally {
        running.current = false;
        setBusy(false);
      }
    },
    reset() {
      setDone(undefined);
      setProblem(undefined);
    },
  };
}

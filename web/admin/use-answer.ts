import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { asProblem, type Problem } from '../shared/problem';

export interface Loaded<T> {
  /** The latest answer; kept while a reload is under way, so the page does not flash "Loading…". */
  data: T | undefined;
  /** Why the latest load failed (cleared by the next success). */
  problem: Problem | undefined;
  /** Loads again (after a write); resolves when the new answer is shown. */
  reload: () => Promise<void>;
}

/**
 * What `load` answers, loaded when the page opens and again whenever `key` changes (a filter, a page's id).
 * An answer that arrives after a newer load started is dropped, so a slow old answer never replaces a new one.
 */
export function useAnswer<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [data, setData] = useState<T>();
  const [problem, setProblem] = useState<Problem>();
  const latest = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const reload = useCallback(async () => {
    latest.current += 1;
    const mine = latest.current;
    try {
      const answer = await loadRef.current();
      if (mine !== latest.current) return;
      setData(answer);
      setProblem(undefined);
    } catch (err) {
      if (mine === latest.current) setProblem(asProblem(err));
    }
  }, []);
  useEffect(() => {
    void reload();
  }, [key, reload]);
  return { data, problem, reload };
}

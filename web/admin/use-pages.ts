import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { asProblem, type Problem } from '../shared/problem';

/** One page of an API list: `{items, next_cursor}` (null on the last page). */
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

export interface Pages<T> {
  /** Every item of the pages loaded so far; undefined until the first page arrives. */
  items: T[] | undefined;
  /** The cursor of the page after these; null when the last page is shown. */
  next: string | null;
  problem: Problem | undefined;
  /** Appends the page at `cursor` (what `Pager` calls). */
  more: (cursor: string) => void;
  /** Loads the first page again, in place of what is shown (after a write). */
  reload: () => Promise<void>;
}

/**
 * A paginated list: the first page when the page opens and whenever `key` changes (its filters), more pages on
 * request. Answers to requests made before the latest reload are dropped.
 */
export function usePages<T>(loadPage: (cursor: string | undefined) => Promise<Page<T>>, key: string): Pages<T> {
  const [items, setItems] = useState<T[]>();
  const [next, setNext] = useState<string | null>(null);
  const [problem, setProblem] = useState<Problem>();
  const generation = useRef(0);
  const loadRef = useRef(loadPage);
  loadRef.current = loadPage;

  const fetchPage = useCallback(async (cursor: string | undefined) => {
    const mine = generation.current;
    try {
      const page = await loadRef.current(cursor);
      if (mine !== generation.current) return;
      setItems((before) => (cursor === undefined ? page.items : [...(before ?? []), ...page.items]));
      setNext(page.next_cursor);
      setProblem(undefined);
    } catch (err) {
      if (mine === generation.current) setProblem(asProblem(err));
    }
  }, []);
  const reload = useCallback(async () => {
    generation.current += 1;
    await fetchPage(undefined);
  }, [fetchPage]);
  const more = useCallback((cursor: string) => void fetchPage(cursor), [fetchPage]);

  useEffect(() => {
    setItems(undefined);
    void reload();
  }, [key, reload]);
  return { items, next, problem, more, reload };
}

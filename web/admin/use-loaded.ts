import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { asProblem, type Problem } from '../shared/problem';

export interface Loaded<T> {
  /**
   * The latest answer: undefined until the first arrives and again when `key` changes (it answered another question);
   * kept while a reload is under way, so the page does not flash "Loading…" after a write.
   */
  data: T | undefined;
  /** Why the latest load failed (cleared by the next success, and when `key` changes). */
  problem: Problem | undefined;
  /** Loads again (after a write), keeping what is shown until the answer; resolves when it is shown. */
  reload: () => Promise<void>;
  /**
   * Loads more of the same answer (a list's next page) and puts it together with what is shown. Dropped when a reload
   * or a new `key` began after it.
   */
  extend: <More>(load: () => Promise<More>, add: (shown: T | undefined, more: More) => T) => Promise<void>;
  /** Shows what a write answered (the record as the API has it now) in place of loading it again. */
  show: (data: T) => void;
}

/**
 * The one way a dashboard page loads what it shows: what `load` answers, loaded when the page opens and again whenever
 * `key` changes (a filter, a page's id), or on `reload()`. An answer that arrives after a newer load began is dropped,
 * so a slow old answer never replaces a new one.
 */
export function useLoaded<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [data, setData] = useState<T>();
  const [problem, setProblem] = useState<Problem>();
  const generation = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  /** Runs `fetch` and shows what `show` makes of its answer, unless a newer load (`reload`, a new key) began. */
  const settle = useCallback(async <A>(fetch: () => Promise<A>, show: (answer: A) => void) => {
    const mine = generation.current;
    try {
      const answer = await fetch();
      if (mine !== generation.current) return;
      show(answer);
      setProblem(undefined);
    } catch (err) {
      if (mine === generation.current) setProblem(asProblem(err));
    }
  }, []);
  const reload = useCallback(async () => {
    generation.current += 1;
    await settle(() => loadRef.current(), setData);
  }, [settle]);
  const extend = useCallback(
    <More>(more: () => Promise<More>, add: (shown: T | undefined, more: More) => T) =>
      settle(more, (answer) => setData((shown) => add(shown, answer))),
    [settle],
  );

  const show = useCallback((answer: T) => {
    generation.current += 1;
    setData(answer);
    setProblem(undefined);
  }, []);

  const shownKey = useRef(key);
  useEffect(() => {
    if (shownKey.current !== key) {
      shownKey.current = key;
      setData(undefined);
      setProblem(undefined);
    }
    void reload();
  }, [key, reload]);
  return { data, problem, reload, extend, show };
}

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

/** A paginated list, loaded by `useLoaded`: the first page, then each next page appended on request. */
export function usePages<T>(loadPage: (cursor: string | undefined) => Promise<Page<T>>, key: string): Pages<T> {
  const first = useLoaded(() => loadPage(undefined), key);
  const { data, extend } = first;
  const more = (cursor: string) =>
    void extend(
      () => loadPage(cursor),
      (shown, page) => ({ items: [...(shown?.items ?? []), ...page.items], next_cursor: page.next_cursor }),
    );
  return { items: data?.items, next: data?.next_cursor ?? null, problem: first.problem, more, reload: first.reload };
}

import type { Database } from '../db/client.js';
import { Batcher } from '../shared/batcher.js';

/**
 * Numbers for the hits of a rate limit, from the shared `rate_limit_counters` table (decision 0013). Every hit of a
 * key gets a number in its window, unique across the processes of the store; the limiter lets it through when the
 * number is at most the limit. So no more hits than the limit ever get through in a window, however many processes
 * count.
 *
 * Numbers are claimed in batches: one statement in flight per process, carrying every key that has hits waiting
 * (one row per key, in key order, so two processes' statements never wait on each other's rows crosswise). A key
 * whose hits arrive faster than one round trip (several waiting on one claim) also claims a few numbers ahead,
 * which its next hits take at once, without a round trip: at most half of what is left under the limit, so a
 * client's own burst can make it refused early by at most that, never let through more. A key whose hits come one
 * at a time claims exactly one number per hit.
 */

export interface HitRequest {
  key: string;
  /** The limit's window, for a window this hit opens. */
  windowMs: number;
  /** The limit: how many hits a window lets through. */
  max: number;
}

export interface HitNumber {
  /** This hit's number in its window (1 for the first). */
  current: number;
  /** Until the window ends. */
  ttlMs: number;
}

/**
 * Claims `n` numbers of one key per row: a new key, or one whose window has ended, starts a window at `n`; an open
 * window counts on. The database's clock is the only one, so processes agree on windows.
 */
const CLAIM = {
  name: 'sf_rate_limit_claim',
  text: `insert into rate_limit_counters as c (key, hits, window_ends_at)
         select h.key, h.n, now() + make_interval(secs => h.window_ms / 1000)
         from unnest($1::text[], $2::integer[], $3::double precision[]) as h(key, n, window_ms)
         order by h.key
         on conflict (key) do update set
           hits = case when c.window_ends_at <= now() then excluded.hits
                       else least(c.hits, 2147483647 - excluded.hits) + excluded.hits end,
           window_ends_at = case when c.window_ends_at <= now() then excluded.window_ends_at else c.window_ends_at end
         returning c.key, c.hits, ceil(extract(epoch from c.window_ends_at - now()) * 1000)::integer as ttl_ms`,
};

/** Keys in one statement at most. */
const MAX_KEYS_PER_STATEMENT = 1_000;
/** Keys waiting for a statement at most; beyond, a hit fails (the limiter then lets it through uncounted). */
const MAX_KEYS_WAITING = 20_000;
/** Numbers claimed ahead for one key at most. */
const MAX_AHEAD = 256;
/** Numbers claimed ahead that went within this time: the key's hits come fast. */
const HOT_MS = 1_000;
/** How often keys whose window is over are forgotten. */
const PRUNE_INTERVAL_MS = 10_000;

interface Waiter {
  resolve: (number: HitNumber) => void;
  reject: (err: unknown) => void;
}

interface KeyState {
  key: string;
  windowMs: number;
  max: number;
  /** Numbers in hand, claimed ahead: `next` to `last` (none when next > last). */
  next: number;
  last: number;
  /** When the window of the numbers in hand ends, on this process's clock. */
  endsAt: number;
  /** The highest number the table gave this key in the current window (0: none yet). */
  known: number;
  /** How many numbers to claim ahead next time (grows while hits come fast, back to 0 with a new window). */
  ahead: number;
  /** Numbers claimed ahead by the last claim, and when it was answered. */
  aheadLast: number;
  answeredAt: number;
  /** Hits that had to wait while a claim was under way. */
  pressed: number;
  waiting: Waiter[];
  claiming: boolean;
}

interface CounterRow {
  key: string;
  hits: number;
  ttl_ms: number;
}

/** Hands out hit numbers from the table. `now` is this process's clock (injectable for tests). */
export function tableHitNumbers(
  database: Pick<Database, 'run'>,
  now: () => number = Date.now,
): (hit: HitRequest) => Promise<HitNumber> {
  const keys = new Map<string, KeyState>();
  let prunedAt = now();

  const batcher = new Batcher<KeyState, null>((states) => claim(states), {
    maxBatch: MAX_KEYS_PER_STATEMENT,
    maxInFlight: 1,
    maxQueued: MAX_KEYS_WAITING,
  });

  const submit = (state: KeyState) => {
    state.claiming = true;
    batcher.submit(state).catch((err: unknown) => {
      // Not sent (too many keys waiting): its hits fail, and are let through uncounted.
      state.claiming = false;
      for (const waiter of state.waiting.splice(0)) waiter.reject(err);
    });
  };

  /** Gives waiting hits the numbers in hand; true when some are still waiting. */
  const serve = (state: KeyState, at: number): boolean => {
    while (state.waiting.length > 0 && state.next <= state.last && at < state.endsAt) {
      state.waiting.shift()?.resolve({ current: state.next++, ttlMs: state.endsAt - at });
    }
    return state.waiting.length > 0;
  };

  async function claim(states: KeyState[]): Promise<null[]> {
    const at = now();
    const claims = states.map((state) => {
      const served = state.waiting.splice(0);
      // Hits came faster than a round trip: some waited on the claim before, or the numbers claimed ahead last time
      // went within HOT_MS. Then more are claimed ahead (twice as many, up to MAX_AHEAD); else half as many.
      const hot = state.pressed > 0 || (state.aheadLast > 0 && at - state.answeredAt < HOT_MS);
      state.ahead = hot ? Math.min(MAX_AHEAD, Math.max(2 * state.ahead, served.length)) : Math.floor(state.ahead / 2);
      state.pressed = 0;
      const left = state.max - state.known - served.length;
      const ahead = Math.max(0, Math.min(state.ahead, Math.floor(left / 2)));
      state.aheadLast = ahead;
      return { state, served, n: served.length + ahead };
    });
    let rows: CounterRow[] | undefined;
    let failure: unknown;
    try {
      rows = await database.run<CounterRow>(CLAIM, [
        claims.map((c) => c.state.key),
        claims.map((c) => c.n),
        claims.map((c) => c.state.windowMs),
      ]);
    } catch (err) {
      failure = err;
    }
    const counted = new Map((rows ?? []).map((row) => [row.key, row]));
    const answeredAt = now();
    for (const { state, served, n } of claims) {
      state.claiming = false;
      const row = counted.get(state.key);
      if (!row) {
        const err = failure ?? new Error(`rate-limit counter ${state.key} was not counted`);
        for (const waiter of served) waiter.reject(err);
        // Hits that arrived meanwhile get a claim of their own.
        if (state.waiting.length > 0) submit(state);
        continue;
      }
      state.known = row.hits;
      state.answeredAt = answeredAt;
      // Dated from before the statement: numbers in hand are never used after their window ended in the table.
      state.endsAt = at + Math.max(0, row.ttl_ms);
      state.next = row.hits - n + 1;
      state.last = row.hits;
      state.waiting.unshift(...served);
      if (serve(state, answeredAt)) submit(state);
    }
    return claims.map(() => null);
  }

  const prune = (at: number) => {
    prunedAt = at;
    for (const [key, state] of keys) {
      if (!state.claiming && state.waiting.length === 0 && at >= state.endsAt) keys.delete(key);
    }
  };

  return (hit) => {
    const at = now();
    if (at - prunedAt > PRUNE_INTERVAL_MS) prune(at);
    let state = keys.get(hit.key);
    if (!state) {
      state = {
        ...hit,
        next: 1,
        last: 0,
        endsAt: 0,
        known: 0,
        ahead: 0,
        aheadLast: 0,
        answeredAt: 0,
        pressed: 0,
        waiting: [],
        claiming: false,
      };
      keys.set(hit.key, state);
    }
    state.windowMs = hit.windowMs;
    state.max = hit.max;
    if (at >= state.endsAt && !state.claiming) {
      // The window is over: the numbers in hand count for nothing, and the next window starts afresh.
      state.next = state.last + 1;
      state.known = 0;
      state.ahead = 0;
      state.aheadLast = 0;
    }
    if (state.waiting.length === 0 && state.next <= state.last && at < state.endsAt) {
      return Promise.resolve({ current: state.next++, ttlMs: state.endsAt - at });
    }
    const pending = state;
    return new Promise<HitNumber>((resolve, reject) => {
      pending.waiting.push({ resolve, reject });
      if (pending.claiming) pending.pressed++;
      else submit(pending);
    });
  };
}

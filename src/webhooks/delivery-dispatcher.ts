import { DEFAULT_STOP_WAIT_MS, type WorkerLog } from '../jobs/worker.js';
import { claimDueDeliveries } from './delivery-store.js';
import { attemptClaimed, attemptLeaseEnd, type DeliveryDeps } from './webhook-delivery.js';

export interface DeliveryDispatcherOptions {
  deps: DeliveryDeps;
  /** Attempts in flight at once, at most (`JOBS_CONCURRENCY`). */
  concurrency: number;
  /** How often to look for due deliveries when nothing woke the dispatcher (`JOBS_POLL_MS`). */
  pollMs: number;
  log: Pick<WorkerLog, 'warn' | 'error'>;
  /** How long `stop()` waits for the attempts in flight. */
  stopWaitMs?: number;
}

export interface DeliveryDispatcher {
  /** Looks for due deliveries now (called when this process made some due). */
  wake(): void;
  /**
   * Stops claiming and waits up to `stopWaitMs` for the attempts in flight. One still running goes on: it is recorded
   * when it ends (the app cuts it off by closing its connections, `registerWebhookDeliveries`), or, if this process
   * exits first, its delivery is due again when its lease ends (the endpoint's timeout and a minute).
   */
  stop(): Promise<void>;
  /** Waits up to `waitMs` for the attempts in flight to end (recorded, or not); answers whether they all did. */
  settled(waitMs: number): Promise<boolean>;
  /** Attempts in flight now. */
  running(): number;
}

/**
 * Attempts due webhook deliveries: the deliveries table is their queue (decision 0044). Each look claims as many due
 * deliveries as there are free slots, in one statement that leases them (`claimDueDeliveries`: SKIP LOCKED, so
 * dispatchers of other processes share the work and never wait on each other), attempts them outside any transaction
 * (`attemptClaimed`; attempts that end together are recorded in one transaction), and looks again when a slot frees
 * while work is left, when woken (`wake`: this process made deliveries due), at a retry this process asked for, and
 * otherwise every `pollMs` (deliveries other processes made due, leases that ran out).
 */
export function startDeliveryDispatcher(options: DeliveryDispatcherOptions): DeliveryDispatcher {
  const { deps, concurrency, pollMs, log } = options;
  const clock = deps.now ?? (() => new Date());
  /** Each attempt in flight, with its delivery's id (a redelivery may run beside an attempt of the same delivery). */
  const inFlight = new Map<Promise<void>, number>();
  let stopping = false;
  let looking: Promise<void> | undefined;
  /** Another look is wanted once the current one ends (a wake came meanwhile, or the last claim took every slot). */
  let lookAgain = false;
  let timer: NodeJS.Timeout | undefined;
  /** When `timer` fires (epoch ms); Infinity when none is set. */
  let timerAt = Number.POSITIVE_INFINITY;
  /** The retries this process's attempts asked for (epoch ms) that no claim has reached yet. */
  const retries = new Set<number>();

  /** Looks at `at` unless a look is already set for sooner. */
  function lookAt(at: number): void {
    if (stopping || at >= timerAt) return;
    clearTimeout(timer);
    timerAt = at;
    // A timer may fire a millisecond before the clock reads `at`; the claim would then find the retry not yet due.
    const delayMs = Math.max(0, at - clock().getTime()) + 2;
    timer = setTimeout(() => {
      timerAt = Number.POSITIVE_INFINITY;
      wake();
    }, delayMs);
    timer.unref();
  }

  /** The next look when nothing wakes the dispatcher: the poll, or the earliest retry asked for, if sooner. */
  function lookLater(): void {
    let at = clock().getTime() + pollMs;
    for (const retry of retries) at = Math.min(at, retry);
    lookAt(at);
  }

  /**
   * Looks once the current turn of the event loop is over: attempts recorded in one batch all end in the same turn,
   * and one claim then fills all the slots they freed rather than one claim each.
   */
  let soon: NodeJS.Immediate | undefined;
  function lookSoon(): void {
    soon ??= setImmediate(() => {
      soon = undefined;
      wake();
    });
  }

  function wake(): void {
    if (stopping) return;
    if (looking || inFlight.size >= concurrency) {
      lookAgain = true;
      return;
    }
    lookAgain = false;
    looking = look()
      .then((full) => {
        if (full) lookAgain = true;
      })
      .catch((err: unknown) => log.error({ err }, 'claiming webhook deliveries failed'))
      .finally(() => {
        looking = undefined;
        if (stopping) return;
        if (lookAgain && inFlight.size < concurrency) wake();
        else lookLater();
      });
  }

  /** Claims due deliveries for the free slots and starts their attempts; answers whether it filled every slot. */
  async function look(): Promise<boolean> {
    const free = concurrency - inFlight.size;
    const now = clock();
    const claimed = await claimDueDeliveries(deps.database, {
      now,
      leaseUntil: attemptLeaseEnd(deps.settings, now),
      limit: free,
    });
    for (const retry of retries) if (retry <= now.getTime()) retries.delete(retry);
    for (const one of claimed) {
      const id = one.delivery.id;
      const attempt = attemptClaimed(deps, one, now)
        .then((next) => {
          if (next.kind !== 'retry') return;
          retries.add(next.retryAt.getTime());
          lookAt(next.retryAt.getTime());
        })
        .catch((err: unknown) =>
          log.error(
            { err, delivery: id },
            'a webhook delivery attempt was not recorded; it is due again after its lease',
          ),
        )
        .finally(() => {
          inFlight.delete(attempt);
          if (lookAgain) lookSoon();
        });
      inFlight.set(attempt, id);
    }
    return claimed.length === free;
  }

  wake();

  async function stop(): Promise<void> {
    stopping = true;
    clearTimeout(timer);
    if (soon) clearImmediate(soon);
    await looking;
    if (!(await settled(options.stopWaitMs ?? DEFAULT_STOP_WAIT_MS))) {
      log.warn({ deliveries: [...inFlight.values()] }, 'stopped with webhook deliveries still in flight');
    }
  }

  /** Waits up to `waitMs` for the attempts in flight to end; answers whether they all did. */
  async function settled(waitMs: number): Promise<boolean> {
    let waited: NodeJS.Timeout | undefined;
    const all = await Promise.race([
      Promise.all(inFlight.keys()).then(() => true),
      new Promise<boolean>((resolve) => {
        waited = setTimeout(() => resolve(false), waitMs);
      }),
    ]);
    clearTimeout(waited);
    return all;
  }

  let stopped: Promise<void> | undefined;
  return {
    wake,
    stop: () => (stopped ??= stop()),
    settled,
    running: () => inFlight.size,
  };
}

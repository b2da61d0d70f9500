import pg from 'pg';

/** The channel the reference-data triggers of migration 0007 notify on; the payload is the table's name. */
export const REFERENCE_CHANNEL = 'sf_reference_changed';
/** What a listener hears when changes may have gone unheard (the feed lost its connection, or got it back). */
export const EVERYTHING = '*';

/**
 * Changes to reference data (catalog, tax, shipping, promo codes) as the database announces them,
 * for in-memory caches. A cache may keep what it read only while the feed is `live`.
 */
export interface ChangeFeed {
  /** Calls `listener` with a changed table's name, or with `EVERYTHING`. Returns the unsubscribe function. */
  subscribe(listener: (table: string) => void): () => void;
  /** Whether notifications arrive now. False while a PostgreSQL feed is reconnecting, and after close. */
  readonly live: boolean;
  close(): Promise<void>;
}

class Listeners {
  private readonly set = new Set<(table: string) => void>();

  subscribe(listener: (table: string) => void): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }

  emit(table: string): void {
    for (const listener of this.set) listener(table);
  }
}

/**
 * The embedded database's feed: notifications from the same PGlite instance, delivered with the query that caused them.
 */
export async function pgliteChangeFeed(client: {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}): Promise<ChangeFeed> {
  const listeners = new Listeners();
  const unlisten = await client.listen(REFERENCE_CHANNEL, (payload) => listeners.emit(payload));
  let live = true;
  return {
    subscribe: (listener) => listeners.subscribe(listener),
    get live() {
      return live;
    },
    close: async () => {
      live = false;
      await unlisten().catch(() => {});
    },
  };
}

export interface PostgresFeedOptions {
  /** Longest wait between reconnection attempts. */
  maxRetryMs?: number;
  onError?: (err: Error) => void;
}

/**
 * A PostgreSQL feed on a connection of its own (LISTEN needs a session; a pooled connection would
 * lose it). When that connection drops, the feed is not live and says `EVERYTHING` changed, then
 * reconnects with a growing delay and says it again once listening (changes in between went unheard).
 */
export async function postgresChangeFeed(url: string, options: PostgresFeedOptions = {}): Promise<ChangeFeed> {
  const listeners = new Listeners();
  const maxRetryMs = options.maxRetryMs ?? 5_000;
  let client: pg.Client | undefined;
  let live = false;
  let closed = false;
  let retryMs = 100;
  let timer: NodeJS.Timeout | undefined;

  const lost = (c: pg.Client, err?: Error) => {
    if (client !== c) return;
    client = undefined;
    live = false;
    listeners.emit(EVERYTHING);
    if (err) options.onError?.(err);
    c.end().catch(() => {});
    if (closed) return;
    timer = setTimeout(() => {
      connect().catch(() => {});
    }, retryMs);
    timer.unref();
    retryMs = Math.min(retryMs * 2, maxRetryMs);
  };

  async function connect(): Promise<void> {
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    client = c;
    c.on('notification', (message) => {
      if (message.channel === REFERENCE_CHANNEL) listeners.emit(message.payload ?? EVERYTHING);
    });
    c.on('error', (err) => lost(c, err));
    c.on('end', () => lost(c));
    try {
      await c.connect();
      await c.query(`listen ${REFERENCE_CHANNEL}`);
    } catch (err) {
      lost(c, err as Error);
      throw err;
    }
    if (closed || client !== c) return;
    live = true;
    retryMs = 100;
    listeners.emit(EVERYTHING);
  }

  try {
    await connect();
  } catch (err) {
    closed = true;
    if (timer) clearTimeout(timer);
    throw err;
  }
  return {
    subscribe: (listener) => listeners.subscribe(listener),
    get live() {
      return live;
    },
    close: async () => {
      closed = true;
      live = false;
      if (timer) clearTimeout(timer);
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    },
  };
}

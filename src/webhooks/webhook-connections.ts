import http from 'node:http';
import https from 'node:https';

/**
 * An idle connection is closed after this long: below the 5 s Node's and many servers' keep-alive timeouts, so it is
 * rarely the receiver that closes one as a delivery goes out.
 */
const IDLE_MS = 4_000;
/** An endpoint's agent not used for this long is dropped. */
const UNUSED_MS = 60_000;

interface Kept {
  agent: http.Agent;
  lastUsed: number;
}

/**
 * Kept-alive connections for webhook deliveries, one pool per endpoint and URL: a delivery reuses a connection the
 * endpoint's last delivery opened (no new TCP and TLS handshake each time), and no connection is shared between
 * endpoints, or outlives a change of URL. Each new connection is still made through the delivery's guarded lookup
 * (the SSRF policy). At most `maxSockets` connections per endpoint: the deliveries run at once (JOBS_CONCURRENCY).
 */
export class WebhookConnections {
  readonly #agents = new Map<string, Kept>();
  readonly #sweep: NodeJS.Timeout;

  constructor(private readonly maxSockets: number) {
    this.#sweep = setInterval(() => this.#dropUnused(Date.now()), UNUSED_MS);
    this.#sweep.unref();
  }

  /** The agent for deliveries to `url` of endpoint `endpointId`. */
  for(endpointId: number, url: string): http.Agent {
    const key = `${endpointId} ${url}`;
    const now = Date.now();
    const kept = this.#agents.get(key);
    if (kept) {
      kept.lastUsed = now;
      return kept.agent;
    }
    const options = { keepAlive: true, maxSockets: this.maxSockets, maxFreeSockets: this.maxSockets, timeout: IDLE_MS };
    const agent = url.startsWith('https:') ? new https.Agent(options) : new http.Agent(options);
    this.#agents.set(key, { agent, lastUsed: now });
    return agent;
  }

  #dropUnused(now: number): void {
    for (const [key, kept] of this.#agents) {
      if (now - kept.lastUsed < UNUSED_MS) continue;
      kept.agent.destroy();
      this.#agents.delete(key);
    }
  }

  /** Closes every connection (the app is closing). */
  close(): void {
    clearInterval(this.#sweep);
    for (const kept of this.#agents.values()) kept.agent.destroy();
    this.#agents.clear();
  }
}

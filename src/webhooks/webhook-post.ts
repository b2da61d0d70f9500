import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { assertPublicLiteral, guardedLookup, type OutboundPolicy, type Resolver } from './outbound-address.js';

/** How much of an answer's body is kept for the log. */
const SNIPPET_BYTES = 256;
/**
 * How much of an answer's body is read past the status line, so that its connection can carry the next delivery;
 * a longer body closes the connection instead.
 */
const DRAIN_BYTES = 64 * 1024;

export interface WebhookPost {
  url: string;
  /** The Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature). */
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  policy: OutboundPolicy;
  resolve: Resolver;
  /** The endpoint's kept-alive connections (`WebhookConnections.for`); none: a connection of its own. */
  agent?: http.Agent;
}

/** What one attempt came to. `ok`: a 2xx answer; anything else (3xx included) is a failure. */
export interface PostOutcome {
  ok: boolean;
  responseCode: number | null;
  durationMs: number;
  error: string | null;
  responseSnippet: string | null;
}

function snippet(chunks: Buffer[]): string | null {
  // Cut at a byte count: a character split in two decodes as U+FFFD; PostgreSQL text holds no NUL.
  const text = Buffer.concat(chunks).subarray(0, SNIPPET_BYTES).toString('utf8').replaceAll('\u0000', '');
  return text === '' ? null : text;
}

function verdict(status: number): string | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return `redirect (${status}) not followed`;
  return `answered ${status}`;
}

/**
 * POSTs one signed delivery and reports how it went; never throws. Node's http client rather than fetch: it takes
 * a lookup of our own, so the addresses checked against the SSRF policy are the ones connected to, and it follows
 * no redirects. The timeout covers everything: DNS, connecting, sending and the status line. A kept-alive
 * connection the endpoint closed as the delivery went out (ECONNRESET before any answer) is tried once more on a new
 * connection: the receiver got nothing.
 */
export async function postWebhook(post: WebhookPost): Promise<PostOutcome> {
  const started = performance.now();
  const failed = (error: string): PostOutcome => ({
    ok: false,
    responseCode: null,
    durationMs: Math.round(performance.now() - started),
    error,
    responseSnippet: null,
  });
  const url = new URL(post.url);
  try {
    assertPublicLiteral(url.hostname, post.policy);
  } catch (err) {
    return failed((err as Error).message);
  }
  const signal = AbortSignal.timeout(post.timeoutMs);
  const first = await attempt(post, { url, signal, started });
  if (first.kind !== 'stale') return first.outcome;
  const again = await attempt(post, { url, signal, started });
  return again.kind === 'stale' ? failed(again.error) : again.outcome;
}

type Attempted = { kind: 'answered'; outcome: PostOutcome } | { kind: 'stale'; error: string };

/** One request; `stale` when it went out on a reused connection that was closed before any answer. */
function attempt(post: WebhookPost, at: { url: URL; signal: AbortSignal; started: number }): Promise<Attempted> {
  const { url, signal, started } = at;
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    /** Set once the status line is in: from then on the answer decides, whatever happens to the body. */
    let answered: (() => void) | undefined;
    const settle = (outcome: Attempted) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      {
        method: 'POST',
        headers: {
          ...post.headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(post.body),
          'user-agent': 'Storefront-Webhooks/1',
        },
        lookup: guardedLookup({ ...post.policy, resolve: post.resolve }),
        agent: post.agent ?? false,
        signal,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const durationMs = elapsed();
        const chunks: Buffer[] = [];
        let size = 0;
        // The status decides. The body is kept for the snippet and read to its end, so the connection can be used
        // again; a long one is cut off (and its connection closed), and so is one still coming when time is up.
        const done = () => {
          const error = verdict(status);
          settle({
            kind: 'answered',
            outcome: { ok: error === null, responseCode: status, durationMs, error, responseSnippet: snippet(chunks) },
          });
        };
        answered = done;
        response.on('data', (chunk: Buffer) => {
          if (size < SNIPPET_BYTES) chunks.push(chunk);
          size += chunk.length;
          if (size > DRAIN_BYTES) {
            done();
            response.destroy();
          }
        });
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    request.on('error', (err: NodeJS.ErrnoException) => {
      if (answered) return answered();
      if (request.reusedSocket && err.code === 'ECONNRESET' && !signal.aborted) {
        return settle({ kind: 'stale', error: err.message });
      }
      const error = signal.aborted ? `no answer within ${post.timeoutMs} ms` : err.message;
      settle({
        kind: 'answered',
        outcome: { ok: false, responseCode: null, durationMs: elapsed(), error, responseSnippet: null },
      });
    });
    request.end(post.body);
  });
}

import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { assertPublicLiteral, guardedLookup, type OutboundPolicy, type Resolver } from './outbound-address.js';

/** How much of an answer's body is kept for the log (the rest is not read). */
const SNIPPET_BYTES = 256;

export interface WebhookPost {
  url: string;
  /** The Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature). */
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  policy: OutboundPolicy;
  resolve: Resolver;
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
 * no redirects. The timeout covers everything: DNS, connecting, sending and the status line.
 */
export function postWebhook(post: WebhookPost): Promise<PostOutcome> {
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
    return Promise.resolve(failed((err as Error).message));
  }
  const signal = AbortSignal.timeout(post.timeoutMs);
  return new Promise((resolve) => {
    let settled = false;
    /** Set once the status line is in: from then on the answer decides, whatever happens to the body. */
    let answered: (() => void) | undefined;
    const settle = (outcome: PostOutcome) => {
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
        // A connection of its own each time: nothing pooled outlives the attempt or is shared between endpoints.
        agent: false,
        signal,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const durationMs = Math.round(performance.now() - started);
        const chunks: Buffer[] = [];
        let size = 0;
        // The status decides; the body is read only for the snippet, until it ends, fills it or time is up.
        const done = () => {
          const error = verdict(status);
          settle({ ok: error === null, responseCode: status, durationMs, error, responseSnippet: snippet(chunks) });
          response.destroy();
        };
        answered = done;
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= SNIPPET_BYTES) done();
        });
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    request.on('error', (err) => {
      if (answered) return answered();
      settle(failed(signal.aborted ? `no answer within ${post.timeoutMs} ms` : err.message));
    });
    request.end(post.body);
  });
}

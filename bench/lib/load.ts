import autocannon from 'autocannon';

export interface LoadRequest {
  url: string;
  method: autocannon.Request['method'];
  headers: Record<string, string>;
  body: string | undefined;
  /** When set, called for every request to vary it (a new event id, another cart, another order's path). */
  vary?: () => { headers?: Record<string, string>; body?: string; path?: string };
}

export interface Measurement {
  /** Mean of the per-second request counts. */
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  /** Responses received in the measured window. */
  requests: number;
  non2xx: number;
  /** Connection errors, including timeouts. */
  errors: number;
  timeouts: number;
  /** Responses per status code, e.g. { "200": 1234 }. */
  statusCodes: Record<string, number>;
  durationSeconds: number;
}

/**
 * One autocannon run. Latencies are collected here from the per-response event rather than read
 * from autocannon's histogram, which keeps whole milliseconds only (a sub-millisecond p99 would read 0).
 */
function fire(
  request: LoadRequest,
  { connections, seconds, latencies }: { connections: number; seconds: number; latencies?: number[] },
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const { vary } = request;
    const instance = autocannon(
      {
        url: request.url,
        method: request.method,
        headers: request.headers,
        body: request.body,
        connections,
        duration: seconds,
        ...(vary
          ? {
              requests: [
                {
                  setupRequest: (req: autocannon.Request) => {
                    const next = vary();
                    return {
                      ...req,
                      path: next.path ?? req.path,
                      headers: { ...req.headers, ...next.headers },
                      body: next.body ?? req.body,
                    };
                  },
                },
              ],
            }
          : {}),
      },
      (err: unknown, result) => (err ? reject(err) : resolve(result)),
    );
    // biome-ignore lint/complexity/useMaxParams: autocannon's 'response' event passes (client, status, bytes, ms).
    if (latencies) instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  });
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** Warms up (results thrown away), then measures `seconds` of closed-loop load with `connections` connections. */
export async function measure(
  request: LoadRequest,
  opts: { connections: number; seconds: number; warmup: number },
): Promise<Measurement> {
  if (opts.warmup > 0) await fire(request, { connections: opts.connections, seconds: opts.warmup });
  const latencies: number[] = [];
  const result = await fire(request, { connections: opts.connections, seconds: opts.seconds, latencies });
  const sorted = Float64Array.from(latencies).sort();
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stats.count ?? 0;
  return {
    requestsPerSecond: result.requests.mean,
    latencyP50Ms: percentile(sorted, 50),
    latencyP99Ms: percentile(sorted, 99),
    latencyMaxMs: sorted[sorted.length - 1] ?? 0,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    durationSeconds: result.duration,
  };
}

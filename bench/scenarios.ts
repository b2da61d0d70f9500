// The benchmark scenarios, as data. To add one (cart, estimate, placement, webhook...), append an
// entry to `scenarios`; `setup` runs once before the load and may create fixtures over HTTP.
import { randomBytes } from 'node:crypto';
import { afterSaleScenarios } from './after-sale-scenarios.js';
import { domainScenarios } from './domain-scenarios.js';
import { mediaScenarios } from './media-scenarios.js';
import { BenchError } from './lib/errors.js';
import { searchScenarios } from './search-scenarios.js';
import type { LoadRequest } from './lib/load.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The request autocannon repeats. `body` is sent as JSON (with content-type) unless it is a string. */
export interface RequestSpec {
  method: Method;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface SetupContext {
  /** e.g. http://127.0.0.1:41234, the server the scenario targets. */
  baseUrl: string;
  /** Runs SQL on the bench database directly (bulk fixtures). */
  sql(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** The app's DATA_DIR (where plugin secrets are kept). */
  dataDir: string;
  /** Builds a fixture once per run and shares it between scenarios. */
  memo<T>(key: string, build: () => Promise<T>): Promise<T>;
  /** One JSON request with fetch; throws unless the status is `expect` (default: any 2xx). */
  call(
    method: Method,
    path: string,
    options?: { body?: unknown; headers?: Record<string, string>; expect?: number },
  ): Promise<unknown>;
  /** A string unique to this run, for emails and other unique fixtures. */
  unique(prefix: string): string;
}

export interface SetupResult extends Partial<RequestSpec> {
  /** Called for every request to vary it (new event ids, other carts, paths); its fields replace the request's. */
  vary?: () => { headers?: Record<string, string>; body?: unknown; path?: string };
}

export interface Scenario extends RequestSpec {
  name: string;
  /** Which server the load goes to; default 'app'. */
  target?: 'app' | 'baseline' | 'baseline-tx';
  /** Another scenario of the same run to report a ratio to (e.g. placement against the minimal transaction). */
  compareTo?: string;
  /** Connections for this scenario instead of the run's (1 measures the server time of one request). */
  connections?: number;
  /** Creates fixtures; whatever it returns replaces the matching request fields above. */
  setup?(ctx: SetupContext): Promise<SetupResult | undefined>;
  /**
   * Runs after the measurement: undoes what setup left that would change later scenarios, and may measure more.
   * Figures it answers are printed and kept with the scenario's result (`extra`).
   */
  teardown?(ctx: SetupContext): Promise<Record<string, number | string> | undefined>;
}

/** Every ratio in the report is relative to this one; it always runs first. */
export const baselineScenario: Scenario = { name: 'baseline', target: 'baseline', method: 'GET', path: '/' };

export const scenarios: Scenario[] = [
  { name: 'healthz', method: 'GET', path: '/healthz' },
  {
    name: 'login',
    method: 'POST',
    path: '/user/storefront/api/login/',
    async setup(ctx) {
      const credentials = { email: `${ctx.unique('bench')}@example.com`, password: 'bench-password-1' };
      await ctx.call('POST', '/user/storefront/api/signup/', { body: credentials, expect: 201 });
      await ctx.call('POST', '/user/storefront/api/login/', { body: credentials, expect: 200 });
      return { body: credentials };
    },
  },
  ...domainScenarios,
  ...afterSaleScenarios,
  ...searchScenarios,
  ...mediaScenarios,
];

/** Fixtures made once per run (`ctx.memo`), for the one app of a run. */
const runMemos = new Map<string, Promise<unknown>>();

/** `memos`: where fixtures made once are kept; one map per app and database when several apps are measured (ab.ts). */
export function setupContext(
  baseUrl: string,
  extra: { sql: SetupContext['sql']; dataDir: string; memos?: Map<string, Promise<unknown>> },
): SetupContext {
  const runId = randomBytes(4).toString('hex');
  let counter = 0;
  const { memos = runMemos, ...fields } = extra;
  return {
    baseUrl,
    ...fields,
    memo: <T>(key: string, build: () => Promise<T>) => {
      if (!memos.has(key)) memos.set(key, build());
      return memos.get(key) as Promise<T>;
    },
    unique: (prefix) => `${prefix}-${runId}-${++counter}`,
    async call(method, path, options = {}) {
      const request = encodeRequest({ method, path, headers: options.headers, body: options.body });
      const response = await fetch(`${baseUrl}${path}`, { method, headers: request.headers, body: request.body });
      const text = await response.text();
      const ok = options.expect === undefined ? response.ok : response.status === options.expect;
      if (!ok) {
        throw new BenchError(
          `setup: ${method} ${path} answered ${response.status}`
            + `${options.expect === undefined ? '' : ` (expected ${options.expect})`}: ${text.slice(0, 500)}`,
        );
      }
      const isJson = (response.headers.get('content-type') ?? '').includes('json');
      return isJson && text !== '' ? (JSON.parse(text) as unknown) : text;
    },
  };
}

/** Headers and body bytes for a request spec: objects become JSON with a JSON content-type. */
export function encodeRequest(spec: RequestSpec): { headers: Record<string, string>; body: string | undefined } {
  const headers = { ...spec.headers };
  if (spec.body === undefined || typeof spec.body === 'string') return { headers, body: spec.body };
  const hasContentType = Object.keys(headers).some((key) => key.toLowerCase() === 'content-type');
  if (!hasContentType) headers['content-type'] = 'application/json';
  return { headers, body: JSON.stringify(spec.body) };
}

/** What `measure` sends for a scenario's request to a server at `baseUrl`: the request encoded, each variation too. */
export function loadRequest(baseUrl: string, spec: RequestSpec, vary: SetupResult['vary']): LoadRequest {
  const { headers, body } = encodeRequest(spec);
  return {
    url: `${baseUrl}${spec.path}`,
    method: spec.method,
    headers,
    body,
    vary:
      vary
      && (() => {
        const next = vary();
        return {
          path: next.path,
          headers: next.headers,
          body: next.body === undefined || typeof next.body === 'string' ? next.body : JSON.stringify(next.body),
        };
      }),
  };
}

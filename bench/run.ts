// Benchmark harness: `npm run bench -- --help`. Starts a bare node:http baseline and the real app
// on a throw-away PostgreSQL database, each in its own process, loads every scenario with
// autocannon from this process, and reports req/s relative to the baseline. See docs/benchmarks.md.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAndStartApp } from './lib/app.js';
import { cleanup, cleanupOnSignals, onCleanup } from './lib/cleanup.js';
import { measure } from './lib/load.js';
import { type BenchOptions, readOptions, USAGE } from './lib/options.js';
import { BenchError } from './lib/errors.js';
import {
  autovacuumWarning,
  type BenchDatabase,
  createBenchDatabase,
  sequentialReads,
  sequentialReadsBetween,
} from './lib/postgres.js';
import { freePort, type Server, startServer } from './lib/processes.js';
import {
  commandLine,
  describeMachine,
  gitRevision,
  machineInfo,
  markdownTable,
  type ScenarioResult,
  summaryLine,
  verdict,
  writeJson,
} from './lib/report.js';
import pg from 'pg';
import {
  baselineScenario,
  encodeRequest,
  loadRequest,
  type RequestSpec,
  type Scenario,
  type SetupResult,
  scenarios,
  setupContext,
} from './scenarios.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Scenarios whose name contains one of the comma-separated texts, with the ones they compare to. */
function selectScenarios(only: string | undefined): Scenario[] {
  if (only === undefined) return scenarios;
  const needles = only
    .toLowerCase()
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  const chosen = new Set(
    scenarios.filter((s) => needles.some((n) => s.name.toLowerCase().includes(n))).map((s) => s.name),
  );
  for (const s of scenarios) if (chosen.has(s.name) && s.compareTo) chosen.add(s.compareTo);
  return scenarios.filter((s) => chosen.has(s.name));
}

async function startBaseline(): Promise<Server> {
  const port = await freePort();
  return startServer({
    name: 'baseline',
    command: process.execPath,
    args: ['--import', 'tsx', 'bench/baseline.ts'],
    cwd: root,
    env: { PATH: process.env.PATH, PORT: String(port) },
    port,
    readyPath: '/',
  });
}

async function startMinimalTransaction(database: BenchDatabase): Promise<Server> {
  const port = await freePort();
  return startServer({
    name: 'baseline-tx',
    command: process.execPath,
    args: ['--import', 'tsx', 'bench/baseline-tx.ts'],
    cwd: root,
    env: { PATH: process.env.PATH, PORT: String(port), DATABASE_URL: database.url },
    port,
    readyPath: '/readyz',
  });
}

interface RunContext {
  options: BenchOptions;
  sql: (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;
  dataDir: string;
  earlier: ScenarioResult[];
  /** With --paired: measures the baseline now and answers its req/s. */
  baselineNow?: () => Promise<number>;
  /** With --paired: measures the scenario this one compares to now (see `compareTo`) and answers its req/s. */
  otherNow?: () => Promise<number>;
}

async function runScenario(scenario: Scenario, server: Server, run: RunContext): Promise<ScenarioResult> {
  const { options } = run;
  let spec: RequestSpec = {
    method: scenario.method,
    path: scenario.path,
    headers: scenario.headers,
    body: scenario.body,
  };
  let vary: SetupResult['vary'];
  const ctx = setupContext(server.baseUrl, { sql: run.sql, dataDir: run.dataDir });
  try {
    if (scenario.setup) {
      const result = await scenario.setup(ctx);
      if (result) {
        const { vary: varyFn, ...fields } = result;
        spec = { ...spec, ...fields };
        vary = varyFn;
      }
    }
  } catch (err) {
    throw new BenchError(`scenario ${scenario.name}: ${(err as Error).message}`);
  }
  const request = `${spec.method} ${spec.path}`;
  const connections = scenario.connections ?? options.connections;
  console.log(
    `- ${scenario.name}: ${request} on ${server.name}, ${connections} connection(s), `
      + `${options.warmup} s warm-up + ${options.duration} s measured...`,
  );
  const pairedBaseline = run.baselineNow ? await run.baselineNow() : undefined;
  const pairedOther = run.otherNow ? await run.otherNow() : undefined;
  const onDatabase = (scenario.target ?? 'app') === 'app';
  const readsBefore = onDatabase ? await sequentialReads(run.sql) : undefined;
  const measurement = await measure(loadRequest(server.baseUrl, spec, vary), {
    connections,
    seconds: options.duration,
    warmup: options.warmup,
  });
  const scanned = readsBefore ? sequentialReadsBetween(readsBefore, await sequentialReads(run.sql)) : [];
  for (const t of scanned) {
    console.log(`  sequential scans read ${t.rows.toLocaleString('en')} rows of ${t.table} (${t.scans} scans)`);
  }
  let extra: Record<string, number | string> | undefined;
  try {
    extra = await scenario.teardown?.(ctx);
  } catch (err) {
    throw new BenchError(`scenario ${scenario.name} (teardown): ${(err as Error).message}`);
  }
  for (const [key, value] of Object.entries(extra ?? {})) console.log(`  ${key}: ${value}`);
  const baselineRps = pairedBaseline ?? run.earlier[0]?.requestsPerSecond ?? measurement.requestsPerSecond;
  const earlierOther = scenario.compareTo
    ? run.earlier.find((r) => r.name === scenario.compareTo)?.requestsPerSecond
    : undefined;
  const otherRps = pairedOther ?? earlierOther;
  return {
    name: scenario.name,
    target: scenario.target ?? 'app',
    request,
    connections,
    ...measurement,
    ratioToBaseline: baselineRps > 0 ? measurement.requestsPerSecond / baselineRps : 0,
    baselineRequestsPerSecond: baselineRps,
    ...(scenario.compareTo && otherRps !== undefined && otherRps > 0
      ? {
          comparedTo: {
            name: scenario.compareTo,
            ratio: measurement.requestsPerSecond / otherRps,
            requestsPerSecond: otherRps,
          },
        }
      : {}),
    valid: measurement.non2xx === 0 && measurement.errors === 0 && measurement.requests > 0,
    ...(extra ? { extra } : {}),
    ...(scanned.length > 0 ? { sequentialReads: scanned } : {}),
  };
}

/** A scenario measured now, outside the run's results: its requests per second. */
function sampleNow(s: Scenario, on: { target: Server; connections: number; options: BenchOptions }) {
  return async () => {
    const { headers, body } = encodeRequest({ method: s.method, path: s.path, headers: s.headers, body: s.body });
    const sample = await measure(
      { url: `${on.target.baseUrl}${s.path}`, method: s.method, headers, body },
      { connections: on.connections, seconds: on.options.duration, warmup: on.options.warmup },
    );
    console.log(`  (${s.name} just before: ${sample.requestsPerSecond.toFixed(1)} req/s)`);
    return sample.requestsPerSecond;
  };
}

/**
 * With --paired, the baseline and the scenario this one compares to (it must need no setup) are measured again just
 * before each scenario: their samplers, none without --paired.
 */
function pairedSamplers(
  scenario: Scenario,
  run: { options: BenchOptions; baseline: Server; serverFor: (s: Scenario) => Server | undefined },
) {
  const { options } = run;
  if (!options.paired) return { baselineNow: undefined, otherNow: undefined };
  const baselineNow =
    scenario !== baselineScenario
      ? sampleNow(baselineScenario, {
          target: run.baseline,
          connections: scenario.connections ?? options.connections,
          options,
        })
      : undefined;
  const other = scenarios.find((s) => s.name === scenario.compareTo);
  const otherServer = other && run.serverFor(other);
  const otherNow =
    other && !other.setup && otherServer
      ? sampleNow(other, { target: otherServer, connections: other.connections ?? options.connections, options })
      : undefined;
  return { baselineNow, otherNow };
}

/** The run's options, or the exit code to stop with: 0 after the usage that was asked for, 2 for a wrong option. */
function optionsOrExitCode(): BenchOptions | number {
  try {
    const options = readOptions(process.argv.slice(2), process.env);
    if (options) return options;
    console.log(USAGE);
    return 0;
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
}

/** Tells of scenarios that got error responses: their figures measure errors, not the endpoint. The exit code. */
function reportInvalid(results: readonly ScenarioResult[]): number {
  const invalid = results.filter((r) => !r.valid);
  if (invalid.length === 0) return 0;
  console.error(
    `\n!!! ${invalid.length} scenario(s) got error responses; their figures measure errors, not the endpoint:`,
  );
  for (const r of invalid) console.error(`!!!   ${r.name}: ${verdict(r).replaceAll('*', '')}`);
  return 1;
}

async function main(): Promise<number> {
  const options = optionsOrExitCode();
  if (typeof options === 'number') return options;
  const selected = selectScenarios(options.only);
  if (options.only !== undefined && selected.length === 0) {
    console.error(`No scenario name contains "${options.only}". Scenarios: ${scenarios.map((s) => s.name).join(', ')}`);
    return 2;
  }

  cleanupOnSignals();
  const startedAt = new Date();
  const loadBefore = os.loadavg()[0] ?? 0;
  const command = commandLine();
  console.log(`Command: ${command}`);
  console.log(
    `Per scenario: ${options.connections} connections, ${options.warmup} s warm-up, `
      + `${options.duration} s measured; loopback only.`,
  );

  let database: BenchDatabase | undefined;
  if (selected.some((s) => (s.target ?? 'app') === 'app')) {
    database = await createBenchDatabase(options.adminDatabaseUrl); // first: an unreachable server fails fast
    const created = database;
    onCleanup(`drop database ${created.name}`, () => created.drop());
    console.log(`Created database ${database.name}.`);
  }
  const baseline = await startBaseline();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sf-bench-data-'));
  onCleanup('remove the data directory', () => rmSync(dataDir, { recursive: true, force: true }));
  const app = database
    ? await buildAndStartApp({
        name: 'app',
        root,
        database,
        dataDir,
        // BENCH_APP_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the app under load.
        nodeArgs: (process.env.BENCH_APP_NODE_ARGS ?? '').split(' ').filter(Boolean),
      })
    : undefined;
  const minimalTx =
    database && selected.some((s) => s.target === 'baseline-tx') ? await startMinimalTransaction(database) : undefined;
  const pool = database ? new pg.Pool({ connectionString: database.url, max: 2 }) : undefined;
  if (pool) onCleanup('close the fixture pool', () => pool.end());
  const sql = async (text: string, params?: unknown[]) => {
    if (!pool) throw new BenchError('no database in this run');
    return (await pool.query(text, params)).rows as Record<string, unknown>[];
  };
  const machine = machineInfo(
    database && { version: database.serverVersion, autovacuum: database.autovacuum },
    loadBefore,
  );
  console.log(describeMachine(machine));
  if (machine.loadAverage1m > 0.5) {
    console.warn(
      `Warning: the 1-minute load average was ${machine.loadAverage1m} before the run; `
        + 'other work on this machine will lower the figures.',
    );
  }
  const vacuumWarning = database && autovacuumWarning(database);
  if (vacuumWarning) console.warn(vacuumWarning);
  console.log('');

  const serverFor = (s: Scenario) =>
    s.target === 'baseline' ? baseline : s.target === 'baseline-tx' ? minimalTx : app;
  const results: ScenarioResult[] = [];
  for (const scenario of [baselineScenario, ...selected]) {
    const server = serverFor(scenario);
    if (!server) throw new Error(`scenario ${scenario.name}: its server was not started`);
    const { baselineNow, otherNow } = pairedSamplers(scenario, { options, baseline, serverFor });
    const result = await runScenario(scenario, server, {
      options,
      sql,
      dataDir,
      earlier: results,
      baselineNow,
      otherNow,
    });
    results.push(result);
    console.log(`  ${summaryLine(result)}`);
  }

  const table = markdownTable(results);
  console.log(`\n${table}\n\nCommand: ${command}\n${describeMachine(machine)}`);
  const logLines = app?.outputLineCount() ?? 0;
  if (app && logLines > 0)
    console.log(`\nThe app wrote ${logLines} log line(s) at LOG_LEVEL=warn; the last ones:\n${app.recentOutput()}`);

  const file = writeJson(path.join(root, 'bench', 'results'), startedAt, {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    command,
    git: gitRevision(root),
    machine,
    options: {
      duration: options.duration,
      warmup: options.warmup,
      connections: options.connections,
      only: options.only ?? null,
      quick: options.quick,
      paired: options.paired,
    },
    baselineRequestsPerSecond: results[0]?.requestsPerSecond,
    results,
    appLogLines: logLines,
  });
  console.log(`\nResults written to ${path.relative(process.cwd(), file)}`);
  return reportInvalid(results);
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (err) {
  console.error(err instanceof BenchError ? `\n${err.message}` : err);
} finally {
  await cleanup();
}
process.exit(exitCode);

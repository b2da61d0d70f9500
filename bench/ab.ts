// Builds of the app compared on one machine: `node --import tsx bench/ab.ts before=../before-checkout after=.`
// (see docs/benchmarks.md). Each build is built and started on a database of its own and gets every scenario's
// setup; then each scenario is measured in short slices, the builds in turn (the order reversed every round), so
// that a machine whose speed drifts, or that other work shares, affects every build alike.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildAndStartApp } from './lib/app.js';
import { cleanup, cleanupOnSignals, onCleanup } from './lib/cleanup.js';
import { BenchError } from './lib/errors.js';
import { measure } from './lib/load.js';
import { autovacuumWarning, createBenchDatabase } from './lib/postgres.js';
import type { Server } from './lib/processes.js';
import { gitRevision, machineInfo, writeJson } from './lib/report.js';
import { loadRequest, type RequestSpec, type SetupResult, scenarios, setupContext } from './scenarios.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const USAGE = `Usage: node --import tsx bench/ab.ts <label>=<checkout> <label>=<checkout> [...]
  Each checkout is a directory of this repository (at any commit) whose node_modules works.
Environment: AB_ONLY (scenario names containing it, or "=name" for that name only; comma-separated;
  default "place"), AB_ROUNDS (8), AB_SECONDS (4 measured per slice), AB_WARMUP (1), AB_CONNECTIONS (10),
  BENCH_DATABASE_URL, AB_ENV_<label> ("KEY=value KEY2=value": settings for that build only), AB_SCENARIO_<label>
  (the scenario that build runs in place of each one AB_ONLY names, e.g. place-3-lines-webhook against place-3-lines
  of the same checkout), AB_NODE_ARGS_<label> ("--cpu-prof --cpu-prof-dir=/tmp/prof": node options for that build's
  app), AB_DRAIN (1: after each slice, wait until the build's
  job worker has no due job left, so its backlog does not run during the next build's slice; 0: don't wait).`;

interface Build {
  label: string;
  root: string;
  server: Server;
  /** Queries on the build's own database (fixtures, its job backlog). */
  sql: (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;
  /** Whether its database's server runs autovacuum. */
  autovacuum: boolean;
  /** Per scenario: the request after its setup on this build's database, and how it varies. */
  requests: Map<string, { spec: RequestSpec; vary: SetupResult['vary'] }>;
}

interface Slice {
  requestsPerSecond: number;
  latencyP99Ms: number;
  non2xx: number;
  errors: number;
  loadAverage1m: number;
  /** Due jobs (queued or running) right after the slice: work the slice's orders left to the job worker. */
  jobsBacklog: number;
  /** Seconds the job worker took to run that backlog (0 without AB_DRAIN, or without a jobs table). */
  drainSeconds: number;
  /**
   * CPU time per measured request (ms) of the app's process and of its database's server processes, from the
   * measurement's start until its jobs were drained (AB_DRAIN). Unlike req/s it hardly moves with other work on the
   * machine. The server's shared processes (WAL writer, checkpointer) and autovacuum are not counted.
   */
  appCpuMsPerRequest: number;
  dbCpuMsPerRequest: number;
}

const CLOCK_TICKS_PER_SECOND = 100;

/** user + system CPU seconds of a process so far (Linux /proc); 0 when it is gone. */
function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** CPU seconds so far of the build's app, and of each server process connected to its database (by pid). */
async function cpuSeconds(build: Build): Promise<{ app: number; db: Map<number, number> }> {
  const rows = await build.sql('select pid from pg_stat_activity where datname = current_database()');
  const db = new Map(rows.map((r) => [Number(r.pid), processCpuSeconds(Number(r.pid))]));
  return { app: build.server.pid === undefined ? 0 : processCpuSeconds(build.server.pid), db };
}

/** CPU seconds spent between two readings by the processes of the second (those that began meanwhile from 0). */
function sumOverCommon(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, seconds] of after) sum += seconds - (before.get(pid) ?? 0);
  return sum;
}

const numberFrom = (raw: string | undefined, fallback: number) => {
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new BenchError(`not a positive number: ${raw}`);
  return n;
};

/** Node options for one build's app, from `AB_NODE_ARGS_<label>` (a CPU profile of one build, say). */
function nodeArgsFor(label: string): string[] {
  return (process.env[`AB_NODE_ARGS_${label}`] ?? '').split(/\s+/).filter((arg) => arg !== '');
}

/**
 * Extra settings for one build, from `AB_ENV_<label>="KEY=value KEY2=value"` (so a checkout can be compared with
 * itself).
 */
function envFor(label: string): Record<string, string> {
  const spec = process.env[`AB_ENV_${label}`] ?? '';
  return Object.fromEntries(
    spec
      .split(/\s+/)
      .filter((pair) => pair.includes('='))
      .map((pair) => pair.split(/=(.*)/s).slice(0, 2)),
  );
}

async function startBuild(input: {
  label: string;
  checkout: string;
  adminUrl: string;
  names: string[];
}): Promise<Build> {
  const { label, checkout, adminUrl, names } = input;
  const database = await createBenchDatabase(adminUrl);
  onCleanup(`drop database ${database.name}`, () => database.drop());
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `sf-ab-${label}-`));
  onCleanup(`remove ${dataDir}`, () => rmSync(dataDir, { recursive: true, force: true }));
  const server = await buildAndStartApp({
    name: label,
    root: checkout,
    database,
    dataDir,
    env: envFor(label),
    nodeArgs: nodeArgsFor(label),
  });
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  onCleanup(`close ${label}'s fixture pool`, () => pool.end());
  const sql = async (text: string, params?: unknown[]) => (await pool.query(text, params)).rows;
  const ctx = setupContext(server.baseUrl, { sql, dataDir, memos: new Map() });
  const requests: Build['requests'] = new Map();
  for (const name of names) {
    // Another scenario in this build's slices, measured against the others' `name` (the same app with a webhook).
    const own = process.env[`AB_SCENARIO_${label}`] || name;
    const scenario = scenarios.find((s) => s.name === own);
    if (!scenario) throw new BenchError(`no scenario ${own}`);
    const { vary, ...fields } = (await scenario.setup?.(ctx)) ?? {};
    const { method, path: urlPath, headers, body } = scenario;
    requests.set(name, { spec: { method, path: urlPath, headers, body, ...fields }, vary });
  }
  return { label, root: checkout, server, sql, autovacuum: database.autovacuum, requests };
}

/**
 * Background work the build has due: jobs queued and due or running, and webhook deliveries pending (the dispatcher's
 * queue since decision 0044; in builds before it each also has a job). 0 for a build without a jobs table (before
 * issue #16).
 */
async function dueJobs(build: Build): Promise<number> {
  const [tables] = await build.sql(
    `select to_regclass('jobs') is not null as jobs, to_regclass('webhook_deliveries') is not null as deliveries`,
  );
  if (tables?.jobs !== true) return 0;
  const pending = `(select count(*) from webhook_deliveries where status = 'pending')`;
  const deliveries = tables.deliveries === true ? pending : '0';
  const [row] = await build.sql(
    `select (select count(*) from jobs where (status = 'queued' and run_at <= now()) or status = 'running')::integer
      + ${deliveries}::integer as n`,
  );
  return Number(row?.n ?? 0);
}

/** Waits until the build's worker has run its due jobs; answers the seconds it took. */
async function drain(build: Build): Promise<number> {
  const started = performance.now();
  while ((await dueJobs(build)) > 0) {
    if (performance.now() - started > 600_000)
      throw new BenchError(`${build.label}'s jobs did not drain in 10 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return (performance.now() - started) / 1000;
}

async function slice(
  build: Build,
  name: string,
  options: { seconds: number; warmup: number; connections: number; drain: boolean },
): Promise<Slice> {
  const request = build.requests.get(name);
  if (!request) throw new Error(`${build.label} has no request for ${name}`);
  const { spec, vary } = request;
  const loadAverage1m = os.loadavg()[0] ?? 0;
  const load = loadRequest(build.server.baseUrl, spec, vary);
  // A build that runs no worker (JOBS_ENABLED=false) keeps its jobs queued: nothing to wait for.
  const runsJobs = envFor(build.label).JOBS_ENABLED !== 'false';
  const settle = async () => {
    const backlog = runsJobs ? await dueJobs(build) : 0;
    return { backlog, seconds: options.drain && backlog > 0 ? await drain(build) : 0 };
  };
  // The warm-up's own run, so that the CPU counted is the measured requests' (and their jobs', when drained).
  await measure(load, { connections: options.connections, seconds: options.warmup, warmup: 0 });
  await settle();
  const before = await cpuSeconds(build);
  const m = await measure(load, { ...options, warmup: 0 });
  const { backlog: jobsBacklog, seconds: drainSeconds } = await settle();
  const after = await cpuSeconds(build);
  const perRequest = (s: number) => (m.requests > 0 ? (1000 * s) / m.requests : 0);
  return {
    requestsPerSecond: m.requestsPerSecond,
    latencyP99Ms: m.latencyP99Ms,
    non2xx: m.non2xx,
    errors: m.errors,
    loadAverage1m,
    jobsBacklog,
    drainSeconds,
    appCpuMsPerRequest: perRequest(after.app - before.app),
    dbCpuMsPerRequest: perRequest(sumOverCommon(before.db, after.db)),
  };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);

/** A needle matches names that contain it, or, written `=name`, only that name. */
function matches(name: string, needle: string): boolean {
  return needle.startsWith('=') ? name === needle.slice(1) : name.includes(needle);
}

/** One build's line for a scenario: its mean figures, and its ratio to the first build round by round. */
function summaryLine(input: {
  label: string;
  own: Slice[];
  first: Slice[];
  against: string | undefined;
  seconds: number;
}) {
  const { own, first } = input;
  const ratios = own.map((s, i) => s.requestsPerSecond / (first[i]?.requestsPerSecond ?? Number.NaN));
  const failed = own.reduce((n, s) => n + s.non2xx + s.errors, 0);
  // Requests a second counting the time their jobs took after the slice.
  const sustained = mean(own.map((s) => (s.requestsPerSecond * input.seconds) / (input.seconds + s.drainSeconds)));
  const backlog = mean(own.map((s) => s.jobsBacklog));
  const cpu =
    `cpu/req app ${mean(own.map((s) => s.appCpuMsPerRequest)).toFixed(3)} ms`
    + ` db ${mean(own.map((s) => s.dbCpuMsPerRequest)).toFixed(3)} ms`;
  return (
    `  ${input.label.padEnd(10)} ${mean(own.map((s) => s.requestsPerSecond))
      .toFixed(0)
      .padStart(6)} req/s`
    + `  p99 ${mean(own.map((s) => s.latencyP99Ms)).toFixed(2)} ms`
    + `  × ${input.against}: ${mean(ratios).toFixed(3)} (rounds ${ratios.map((r) => r.toFixed(2)).join(' ')})`
    + `  ${cpu}  load ${mean(own.map((s) => s.loadAverage1m)).toFixed(1)}`
    + (backlog > 0
      ? `  jobs left ${backlog.toFixed(0)}, drained in ${mean(own.map((s) => s.drainSeconds)).toFixed(2)} s`
        + ` (${sustained.toFixed(0)} req/s with it)`
      : '')
    + (failed > 0 ? `  !! ${failed} non-2xx or errors` : '')
  );
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.length < 2 || args.some((a) => !/^[\w.-]+=.+/.test(a))) {
    console.error(USAGE);
    return 2;
  }
  const rounds = numberFrom(process.env.AB_ROUNDS, 8);
  const options = {
    seconds: numberFrom(process.env.AB_SECONDS, 4),
    warmup: numberFrom(process.env.AB_WARMUP, 1),
    connections: numberFrom(process.env.AB_CONNECTIONS, 10),
    drain: (process.env.AB_DRAIN ?? '1') !== '0',
  };
  const needles = (process.env.AB_ONLY || 'place').toLowerCase().split(',');
  const names = scenarios
    .filter((s) => (s.target ?? 'app') === 'app' && needles.some((n) => matches(s.name.toLowerCase(), n.trim())))
    .map((s) => s.name);
  if (names.length === 0) throw new BenchError(`no app scenario's name contains ${needles.join(' or ')}`);
  cleanupOnSignals();
  const startedAt = new Date();
  const adminUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const builds: Build[] = [];
  for (const arg of args) {
    const [label = '', checkout = ''] = arg.split(/=(.*)/s);
    builds.push(await startBuild({ label, checkout: path.resolve(checkout), adminUrl, names }));
  }
  const vacuumWarning = builds[0] && autovacuumWarning(builds[0]);
  if (vacuumWarning) console.warn(vacuumWarning);
  const results: Record<string, Record<string, Slice[]>> = {};
  for (const name of names) {
    const slices: Record<string, Slice[]> = Object.fromEntries(builds.map((b) => [b.label, []]));
    for (let round = 0; round < rounds; round++) {
      for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
        slices[build.label]?.push(await slice(build, name, options));
      }
    }
    results[name] = slices;
    const first = slices[builds[0]?.label ?? ''] ?? [];
    console.log(`\n${name}: ${rounds} rounds of ${options.seconds} s per build, in turn`);
    for (const build of builds) {
      const own = slices[build.label] ?? [];
      console.log(summaryLine({ label: build.label, own, first, against: builds[0]?.label, seconds: options.seconds }));
    }
  }
  const file = writeJson(path.join(root, 'bench', 'results'), startedAt, {
    kind: 'ab',
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    builds: builds.map((b) => ({ label: b.label, root: b.root, git: gitRevision(b.root) })),
    machine: machineInfo(undefined, os.loadavg()[0] ?? 0),
    options: { rounds, ...options },
    results,
  });
  console.log(`\nResults written to ${path.relative(process.cwd(), file)}`);
  return 0;
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

import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Measurement } from './load.js';

export interface ScenarioResult extends Measurement {
  name: string;
  target: 'app' | 'baseline' | 'baseline-tx';
  request: string;
  connections: number;
  /** req/s divided by the baseline's req/s in the same run. */
  ratioToBaseline: number;
  /** The baseline's req/s the ratio was taken to: the run's first sample, or the one just before (--paired). */
  baselineRequestsPerSecond: number;
  /**
   * req/s divided by another scenario's of the same run (e.g. placement against the minimal
   * transaction): its sample measured just before this one with --paired, else its own row's.
   */
  comparedTo?: { name: string; ratio: number; requestsPerSecond: number };
  /**
   * False when any response was non-2xx or any connection failed: then the figures are not a benchmark of the endpoint.
   */
  valid: boolean;
  /** Figures the scenario's teardown measured besides the load (e.g. webhook deliveries per second). */
  extra?: Record<string, number | string>;
  /**
   * Tables whose sequential scans read many rows during the measurement (`sequentialReadsBetween`): a plan made for a
   * smaller table.
   */
  sequentialReads?: { table: string; scans: number; rows: number }[];
}

export interface Machine {
  node: string;
  platform: string;
  cpuCount: number;
  cpuModel: string;
  memoryGiB: number;
  /** 1-minute load average before the run started (before the build): other work lowers every figure. */
  loadAverage1m: number;
  postgres: string | undefined;
  /** Whether the PostgreSQL server runs autovacuum (undefined without a database). */
  autovacuum: boolean | undefined;
}

export function machineInfo(
  postgres: { version: string; autovacuum: boolean } | undefined,
  loadAverage1m: number,
): Machine {
  const cpus = os.cpus();
  return {
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpuCount: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    loadAverage1m: Math.round(loadAverage1m * 100) / 100,
    postgres: postgres?.version,
    autovacuum: postgres?.autovacuum,
  };
}

export function describeMachine(m: Machine): string {
  return (
    `Machine: node ${m.node}, ${m.cpuCount} × ${m.cpuModel}, ${m.memoryGiB} GiB, ${m.platform}`
    + (m.postgres ? `\nPostgreSQL: ${m.postgres}, autovacuum ${m.autovacuum ? 'on' : 'off'}` : '')
  );
}

/** The command as typed, as near as we can tell: npm sets npm_lifecycle_event when it runs the script. */
export function commandLine(): string {
  const args = process.argv.slice(2).join(' ');
  if (process.env.npm_lifecycle_event === 'bench') return `npm run bench${args ? ` -- ${args}` : ''}`;
  return `tsx ${path.relative(process.cwd(), process.argv[1] ?? 'bench/run.ts')}${args ? ` ${args}` : ''}`;
}

export function gitRevision(cwd: string): string | undefined {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${commit} (with uncommitted changes)` : commit;
  } catch {
    return undefined;
  }
}

const fixed = (value: number, digits: number) => value.toFixed(digits);

export function verdict(result: ScenarioResult): string {
  if (result.valid) return 'ok';
  const codes = Object.entries(result.statusCodes)
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, count]) => `${count}×${code}`)
    .join(', ');
  return `**INVALID: ${result.non2xx} non-2xx${codes ? ` (${codes})` : ''}, ${result.errors} errors**`;
}

/** One line per scenario, printed as soon as it is measured. */
export function summaryLine(result: ScenarioResult): string {
  const flag = result.valid ? '' : `  <-- ${verdict(result).replaceAll('*', '')}`;
  return (
    `${result.name.padEnd(12)} ${fixed(result.requestsPerSecond, 1).padStart(10)} req/s   `
    + `p99 ${fixed(result.latencyP99Ms, 2).padStart(8)} ms`
    + `   non-2xx ${result.non2xx}   errors ${result.errors}   ${result.ratioToBaseline.toPrecision(3)}× baseline`
    + `${result.comparedTo ? `   ${result.comparedTo.ratio.toPrecision(3)}× ${result.comparedTo.name}` : ''}${flag}`
  );
}

export function markdownTable(results: ScenarioResult[]): string {
  const otherRatio = (r: ScenarioResult) =>
    r.comparedTo
      ? `${r.comparedTo.ratio.toPrecision(3)} × ${r.comparedTo.name} (${fixed(r.comparedTo.requestsPerSecond, 0)}/s)`
      : '';
  const rows = results.map((r) => {
    const cells = [r.name, `\`${r.request}\``, r.connections, fixed(r.requestsPerSecond, 1), fixed(r.latencyP50Ms, 2)];
    cells.push(
      fixed(r.latencyP99Ms, 2),
      r.non2xx,
      r.errors,
      r.ratioToBaseline.toPrecision(3),
      otherRatio(r),
      verdict(r),
    );
    return `| ${cells.join(' | ')} |`;
  });
  return [
    '| Scenario | Request | conns | req/s (mean) | p50 (ms) | p99 (ms) | non-2xx | errors | ratio to baseline | other ratio | verdict |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|',
    ...rows,
  ].join('\n');
}

export function writeJson(dir: string, startedAt: Date, report: unknown): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}

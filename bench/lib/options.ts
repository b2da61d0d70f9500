import { parseArgs } from 'node:util';

export interface BenchOptions {
  /** Measured seconds per scenario. */
  duration: number;
  /** Seconds of unmeasured load before each measurement, so the JIT and pools are warm. */
  warmup: number;
  connections: number;
  /** Case-insensitive substring of scenario names to run; the baseline always runs. */
  only: string | undefined;
  quick: boolean;
  /** Measure the baseline again right before each scenario, and take its ratio to that sample. */
  paired: boolean;
  adminDatabaseUrl: string;
}

export const USAGE = `Usage: npm run bench -- [options]

  --duration <s>     measured seconds per scenario (env BENCH_DURATION, default 10)
  --warmup <s>       unmeasured warm-up seconds per scenario (env BENCH_WARMUP, default 1)
  --connections <n>  concurrent connections (env BENCH_CONNECTIONS, default 10)
  --only <text>      run only scenarios whose name contains <text>, or one of comma-separated texts, and those
                     they compare to (env BENCH_ONLY); the baseline always runs, since every ratio is relative to it
  --quick            3 s smoke run (env BENCH_QUICK=1); --duration still wins
  --paired           measure the baseline again right before each scenario and take the scenario's
                     ratio to that sample (env BENCH_PAIRED=1), and likewise the scenario it compares
                     to (placement: minimal-tx): on a machine whose speed drifts during a run, ratios
                     then compare like with like; two to three times as long
  --help             this text

  BENCH_DATABASE_URL  maintenance database to create the bench database from
                      (default postgres://postgres@127.0.0.1:5432/postgres)`;

type Kind = 'seconds > 0' | 'seconds >= 0' | 'whole number > 0';

function numberOption(
  name: string,
  { raw, fallback, kind }: { raw: string | undefined; fallback: number; kind: Kind },
): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  const ok =
    Number.isFinite(value)
    && (kind === 'seconds >= 0' ? value >= 0 : value > 0)
    && (kind !== 'whole number > 0' || Number.isInteger(value));
  if (!ok) throw new Error(`${name}: "${raw}" is not ${kind}`);
  return value;
}

/** Reads options from argv, falling back to BENCH_* environment variables. Returns undefined for --help. */
export function readOptions(argv: string[], env: NodeJS.ProcessEnv): BenchOptions | undefined {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      only: { type: 'string' },
      quick: { type: 'boolean' },
      paired: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return undefined;
  const quick = values.quick ?? ['1', 'true', 'yes'].includes((env.BENCH_QUICK ?? '').toLowerCase());
  const paired = values.paired ?? ['1', 'true', 'yes'].includes((env.BENCH_PAIRED ?? '').toLowerCase());
  return {
    quick,
    paired,
    duration: numberOption('--duration', {
      raw: values.duration ?? env.BENCH_DURATION,
      fallback: quick ? 3 : 10,
      kind: 'seconds > 0',
    }),
    warmup: numberOption('--warmup', { raw: values.warmup ?? env.BENCH_WARMUP, fallback: 1, kind: 'seconds >= 0' }),
    connections: numberOption('--connections', {
      raw: values.connections ?? env.BENCH_CONNECTIONS,
      fallback: 10,
      kind: 'whole number > 0',
    }),
    only: values.only ?? (env.BENCH_ONLY || undefined),
    adminDatabaseUrl: env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  };
}

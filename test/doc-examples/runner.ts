import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { isExampleBlock, type ShellBlock, type ShellCommand, shellCommands } from './markdown.js';

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Put before the examples: real curl, through a function that notes where each call came from
 * (the caller's line) and its status, without changing what the example sees.
 */
const PRELUDE = [
  'set -euo pipefail',
  'command -v curl > /dev/null || { echo "the doc examples need curl (apt-get install curl)" >&2; exit 127; }',
  'curl() {',
  '  local call',
  '  call=$(mktemp -d "$DOC_EXAMPLES_CALLS/call.XXXXXXXX")',
  '  printf \'%s %s\\n\' "$EPOCHREALTIME" "${BASH_LINENO[0]}" > "$call/where"',
  '  printf \'%q \' "$@" > "$call/args"',
  '  { command curl --max-time 30 -D "$call/headers" "$@" || echo "$?" > "$call/rc"; } | tee "$call/body"',
  '  if [ -e "$call/rc" ]; then return "$(cat "$call/rc")"; fi',
  '}',
  'npm() { echo "npm does not run in doc examples: give it a block of its own, without curl" >&2; return 1; }',
  // jq is not on every machine; a small stand-in covers the filters the docs use.
  'if [ -n "${DOC_EXAMPLES_JQ_SUBSET:-}" ] || ! command -v jq > /dev/null; then',
  '  jq() { node "$DOC_EXAMPLES_JQ" "$@"; }',
  'fi',
];

/** The docs say localhost:8000 (a fresh `npm start`); the test's server listens elsewhere. */
const DOCS_ADDRESS = /\b(?:https?:\/\/)?(?:localhost|127\.0\.0\.1):8000\b/g;

export interface Call {
  line: number;
  args: string;
  /** Last HTTP status received; undefined when curl got no answer. */
  status: number | undefined;
  exitCode: number;
  body: string;
}

export interface ExamplesRun {
  /** Commands that call curl and ran, over all example blocks. */
  ran: number;
  calls: number;
  skipped: { file: string; line: number; reason: string }[];
  /** Everything that went wrong, one line each; empty when every example answered as it says. */
  problems: string[];
}

async function readCall(dir: string): Promise<Call & { at: number }> {
  const text = async (name: string) => readFile(path.join(dir, name), 'utf8').catch(() => '');
  const [at = '0', line = '0'] = (await text('where')).trim().split(' ');
  const statuses = [...(await text('headers')).matchAll(/^HTTP\/\S+ (\d{3})/gm)].map((m) => Number(m[1]));
  const rc = (await text('rc')).trim();
  return {
    at: Number(at),
    line: Number(line),
    args: (await text('args')).trim(),
    status: statuses.at(-1),
    exitCode: rc === '' ? 0 : Number(rc),
    body: await text('body'),
  };
}

function describeCall(call: Call): string {
  const answer = call.status === undefined ? `no answer (curl exit ${call.exitCode})` : `answered ${call.status}`;
  const args = call.args.replace(/(Bearer\\? )[\w.-]{20,}/g, '$1…');
  return `curl ${args} ${answer}${call.body ? `: ${call.body.slice(0, 400).replace(/\s+/g, ' ')}` : ''}`;
}

function problemCode(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed !== null && typeof parsed === 'object' && 'code' in parsed ? String(parsed.code) : undefined;
  } catch {
    return undefined;
  }
}

/** What is wrong with one example's calls, if anything. */
function judge(where: string, command: ShellCommand, calls: Call[]): string[] {
  if (calls.length === 0) return [`${where}: never ran (an earlier command failed, or curl was not called directly)`];
  return calls.flatMap((call) => {
    const expected = command.expectedStatus;
    if (call.status === undefined) return [`${where}: ${describeCall(call)}`];
    if (call.status >= 500) return [`${where}: ${describeCall(call)}; an example must never get a 5xx`];
    if (expected !== undefined && call.status !== expected) {
      return [`${where}: ${describeCall(call)}, the doc says ${expected}`];
    }
    if (expected === undefined && call.status >= 400) {
      return [`${where}: ${describeCall(call)}; write "# → ${call.status} …" after it if that is the point`];
    }
    if (command.expectedCode !== undefined && problemCode(call.body) !== command.expectedCode) {
      return [`${where}: ${describeCall(call)}, the doc shows code ${command.expectedCode}`];
    }
    return [];
  });
}

/** Runs examples.sh in `work` in a bare environment: its exit code and standard error (0 and '' when it passed). */
async function runScript(
  work: string,
  options: { callsDir: string; timeoutMs: number | undefined },
): Promise<{ code: number; stderr: string }> {
  try {
    await run('bash', [path.join(work, 'examples.sh')], {
      cwd: work,
      timeout: options.timeoutMs ?? 120_000,
      maxBuffer: 16 * 1024 * 1024,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: work,
        LANG: 'C.UTF-8',
        DOC_EXAMPLES_CALLS: options.callsDir,
        DOC_EXAMPLES_JQ: path.join(here, 'jq-subset.mjs'),
        DOC_EXAMPLES_JQ_SUBSET: process.env.DOC_EXAMPLES_JQ_SUBSET ?? '',
      },
    });
    return { code: 0, stderr: '' };
  } catch (err) {
    const failed = err as { code?: number | string; stderr?: string; killed?: boolean };
    const stderr = `${failed.killed ? 'timed out; ' : ''}${failed.stderr ?? ''}`;
    return { code: typeof failed.code === 'number' ? failed.code : 1, stderr };
  }
}

/**
 * Runs the example blocks of one Markdown file, in order, in one bash, against `baseUrl`, and
 * says which examples answered otherwise than the doc says.
 */
export async function runExamples(input: {
  blocks: ShellBlock[];
  baseUrl: string;
  timeoutMs?: number;
}): Promise<ExamplesRun> {
  const examples = input.blocks.filter(isExampleBlock);
  const skipped = examples
    .filter((b) => b.noRunReason !== undefined)
    .map((b) => ({ file: b.file, line: b.line, reason: b.noRunReason ?? '' }));
  const problems = skipped
    .filter((s) => s.reason === '')
    .map((s) => `${s.file}:${s.line}: "no-run" needs a reason ("no-run: needs a Stripe account")`);
  const runnable = examples.filter((b) => b.noRunReason === undefined);
  if (runnable.length === 0) return { ran: 0, calls: 0, skipped, problems };

  // Script line (1-based) → the command written on it.
  const byLine = new Map<number, ShellCommand>();
  const commands = new Map(runnable.map((block) => [block, shellCommands(block)]));
  const script = [...PRELUDE];
  for (const block of runnable) {
    const offset = script.length + 1 - block.line;
    for (const command of commands.get(block) ?? []) {
      for (let l = command.startLine; l <= command.endLine; l += 1) byLine.set(l + offset, command);
    }
    script.push(...block.lines.map((l) => l.replace(DOCS_ADDRESS, input.baseUrl)));
  }

  const work = await mkdtemp(path.join(tmpdir(), 'doc-examples-'));
  try {
    const callsDir = path.join(work, 'calls');
    await mkdir(callsDir);
    await writeFile(path.join(work, 'examples.sh'), `${script.join('\n')}\n`);
    const exit = await runScript(work, { callsDir, timeoutMs: input.timeoutMs });
    const calls = (await Promise.all((await readdir(callsDir)).map((d) => readCall(path.join(callsDir, d))))).sort(
      (a, b) => a.at - b.at,
    );
    const file = runnable[0]?.file ?? '?';
    let ran = 0;
    for (const block of runnable) {
      for (const command of (commands.get(block) ?? []).filter((c) => c.callsCurl)) {
        const mine = calls.filter((c) => byLine.get(c.line) === command);
        if (mine.length > 0) ran += 1;
        problems.push(...judge(`${block.file}:${command.startLine}`, command, mine));
      }
    }
    // Calls no example command owns (a curl inside a shell function, say) are held to the same rules.
    const unowned: ShellCommand = { startLine: 0, endLine: 0, text: '', callsCurl: true };
    for (const call of calls.filter((c) => !byLine.get(c.line)?.callsCurl)) {
      problems.push(...judge(`${file} (script line ${call.line})`, unowned, [call]));
    }
    if (exit.code !== 0) {
      // curl's progress meter says nothing about what went wrong.
      const lines = exit.stderr.split(/[\r\n]+/).filter((l) => l.trim() !== '' && !/--:--|% Total|Dload/.test(l));
      const tail = lines.slice(-5).join(' | ');
      problems.push(`${file}: the examples stopped with exit ${exit.code}: ${tail}`);
    }
    return { ran, calls: calls.length, skipped, problems };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

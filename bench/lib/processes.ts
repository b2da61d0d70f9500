import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { onCleanup } from './cleanup.js';
import { BenchError } from './errors.js';

/** A port the OS reports free on 127.0.0.1 (another process could take it before we do; unlikely). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('could not read the free port');
  return address.port;
}

/** Runs a command to completion with inherited output; throws if it fails. */
export async function runCommand(command: string, args: string[], cwd: string): Promise<void> {
  const child = spawn(command, args, { cwd, stdio: 'inherit' });
  onCleanup(`stop ${command} ${args.join(' ')}`, () => stopChild(child));
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  if (code !== 0)
    throw new BenchError(
      `${command} ${args.join(' ')} failed (${signal ?? `exit code ${code}`}); see its output above`,
    );
}

export interface Server {
  name: string;
  baseUrl: string;
  pid: number | undefined;
  /** The last lines the process wrote, to show when something goes wrong. */
  recentOutput(): string;
  /** Lines written in total (with LOG_LEVEL=warn, any line at all is worth a look). */
  outputLineCount(): number;
  stop(): Promise<void>;
}

const KEPT_LINES = 40;

/**
 * Starts a server as a child process (so it does not share the load generator's event loop),
 * then polls `readyPath` until it answers 200. It is stopped by `cleanup()`. Output is kept in memory, not echoed: a
 * server
 * logging under load would otherwise flood the terminal.
 */
export async function startServer(options: {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  port: number;
  readyPath: string;
  readyTimeoutMs?: number;
}): Promise<Server> {
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onCleanup(`stop the ${options.name} server`, () => stopChild(child)); // at once: Ctrl+C may come before it is ready
  const lines: string[] = [];
  let lineCount = 0;
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line.trim() === '') continue;
      lineCount += 1;
      lines.push(line);
      if (lines.length > KEPT_LINES) lines.shift();
    }
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  const baseUrl = `http://127.0.0.1:${options.port}`;
  const server: Server = {
    name: options.name,
    baseUrl,
    pid: child.pid,
    recentOutput: () => lines.join('\n'),
    outputLineCount: () => lineCount,
    stop: () => stopChild(child),
  };
  try {
    await waitUntilReady(child, `${baseUrl}${options.readyPath}`, options.readyTimeoutMs ?? 30_000);
  } catch (err) {
    await server.stop();
    const output = server.recentOutput();
    throw new BenchError(
      `${options.name} did not become ready: ${(err as Error).message}`
        + (output ? `\n--- last output of ${options.name} ---\n${output}` : ''),
    );
  }
  return server;
}

async function waitUntilReady(child: ChildProcess, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`it exited (${child.signalCode ?? `exit code ${child.exitCode}`})`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
      last = `GET ${url} answered ${response.status}`;
    } catch (err) {
      last = `GET ${url} failed: ${(err as Error).message}`;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms (${last})`);
}

/** SIGTERM, then SIGKILL if the process has not exited within `graceMs`. */
async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
}

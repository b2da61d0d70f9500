import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

/**
 * The service as a real process (`src/<script>` through tsx, as `npm start` runs it), for tests only a process shows.
 */
const root = path.resolve(import.meta.dirname, '..');

export interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

export function run(script: string, env: Record<string, string>, args: string[] = []): Running {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src', script), ...args], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'info', TEST_DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: capturedOutput(child), exited };
}

/** What a child process prints on stdout and stderr from now on, interleaved as it arrives. */
export function capturedOutput(child: ChildProcess): () => string {
  let output = '';
  const append = (d: Buffer) => {
    output += d.toString();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  return () => output;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export async function waitReady(port: number, proc: Running): Promise<void> {
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`process exited early: ${proc.output()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`not ready in time: ${proc.output()}`);
}

// A webhook receiver for the bench: a child process (bench/webhook-receiver-process.ts) that answers 204 at once and
// counts what arrives, so that its work shares no event loop with autocannon's, as the app and the baselines don't.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** What the receiver has answered since it started or was last reset; times in epoch ms (sub-millisecond). */
export interface ReceiverCounts {
  count: number;
  firstAt: number | undefined;
  lastAt: number | undefined;
}

export interface BenchReceiver {
  url: string;
  counts(): Promise<ReceiverCounts>;
  /** Forgets the count (the next measurement starts from zero). */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** A message of the receiver process: its port once listening, or the answer to a request. */
type Reply = { kind: 'listening'; port: number } | ({ kind: 'counts' } & ReceiverCounts) | { kind: 'reset' };

const script = fileURLToPath(new URL('./webhook-receiver-process.ts', import.meta.url));

/** The next message of `child` of that kind. */
function next<K extends Reply['kind']>(child: ChildProcess, kind: K): Promise<Extract<Reply, { kind: K }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: Reply) => {
      if (message.kind !== kind) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message as Extract<Reply, { kind: K }>);
    };
    const onExit = (code: number | null) => {
      child.off('message', onMessage);
      reject(new Error(`the webhook receiver exited (code ${String(code)})`));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

export async function startBenchReceiver(): Promise<BenchReceiver> {
  const child = fork(script, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { port } = await next(child, 'listening');
  const ask = <K extends 'counts' | 'reset'>(kind: K) => {
    const answer = next(child, kind);
    child.send({ kind });
    return answer;
  };
  return {
    url: `http://127.0.0.1:${port}/bench-hook`,
    counts: async () => {
      const { count, firstAt, lastAt } = await ask('counts');
      return { count, firstAt, lastAt };
    },
    reset: async () => {
      await ask('reset');
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

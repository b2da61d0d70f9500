// A webhook receiver for the bench, in the bench's own process: answers 204 at once and counts what arrives.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BenchReceiver {
  url: string;
  /** Requests answered so far, and when the first and the latest arrived (performance.now() ms). */
  count(): number;
  firstAt(): number | undefined;
  lastAt(): number | undefined;
  /** Forgets the count (the next measurement starts from zero). */
  reset(): void;
  close(): Promise<void>;
}

export async function startBenchReceiver(): Promise<BenchReceiver> {
  let count = 0;
  let firstAt: number | undefined;
  let lastAt: number | undefined;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const now = performance.now();
      count += 1;
      firstAt ??= now;
      lastAt = now;
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/bench-hook`,
    count: () => count,
    firstAt: () => firstAt,
    lastAt: () => lastAt,
    reset: () => {
      count = 0;
      firstAt = undefined;
      lastAt = undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

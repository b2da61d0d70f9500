// The bench's webhook receiver (bench/webhook-receiver.ts starts it): answers every request 204 once its body has
// arrived, counts them, and tells the parent over IPC its port, and on request its counts, or forgets them.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

let count = 0;
let firstAt: number | undefined;
let lastAt: number | undefined;

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const now = performance.timeOrigin + performance.now();
    count += 1;
    firstAt ??= now;
    lastAt = now;
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 30_000;

const send = (message: Record<string, unknown>) => process.send?.(message);

process.on('message', (message: { kind?: string }) => {
  if (message.kind === 'counts') send({ kind: 'counts', count, firstAt, lastAt });
  if (message.kind === 'reset') {
    count = 0;
    firstAt = undefined;
    lastAt = undefined;
    send({ kind: 'reset' });
  }
});
// The parent gone, nothing is left to report to.
process.on('disconnect', () => process.exit(0));
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});

server.listen(0, '127.0.0.1', () => send({ kind: 'listening', port: (server.address() as AddressInfo).port }));

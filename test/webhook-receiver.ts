import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the receiver got. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The sender's port: requests on one kept-alive connection share it. */
  remotePort: number | undefined;
}

/** How the receiver answers the n-th request (1-based) to a path: a status (after a delay), or never. */
export type Answer = { status: number; delayMs?: number; body?: string; headers?: Record<string, string> } | 'hang';
export type Behaviour = (n: number, request: Received) => Answer;

export interface Receiver {
  /** The URL of `path` on this receiver (http://127.0.0.1:<port><path>). */
  url(path: string): string;
  port: number;
  /** Every request, in arrival order. */
  received: Received[];
  on(path: string, behaviour: Behaviour): void;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 (port chosen by the system): answers 204 unless told otherwise for a path. */
export async function startReceiver(): Promise<Receiver> {
  const behaviours = new Map<string, Behaviour>();
  const counts = new Map<string, number>();
  const received: Received[] = [];
  const answer = (res: ServerResponse, reply: Exclude<Answer, 'hang'>) => {
    if (res.destroyed) return;
    res.writeHead(reply.status, reply.headers).end(reply.body);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        remotePort: req.socket.remotePort,
      };
      received.push(request);
      const n = (counts.get(request.path) ?? 0) + 1;
      counts.set(request.path, n);
      const reply = behaviours.get(request.path)?.(n, request) ?? { status: 204 };
      if (reply === 'hang') return;
      if (reply.delayMs) setTimeout(() => answer(res, reply), reply.delayMs);
      else answer(res, reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    port,
    received,
    on: (path, behaviour) => {
      behaviours.set(path, behaviour);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

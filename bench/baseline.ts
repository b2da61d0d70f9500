// The floor every scenario is compared with: a bare node:http server doing no work, on the same
// machine and loopback as the app. Run as a child process by bench/run.ts; PORT picks the port.
import { createServer } from 'node:http';

const port = Number(process.env.PORT ?? 8080);
const body = JSON.stringify({ status: 'ok' });

const server = createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/') {
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
    return;
  }
  response.writeHead(404).end();
});

server.listen(port, '127.0.0.1');
const stop = () => server.close(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);

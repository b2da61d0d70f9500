import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers.js';

// app.inject() hands Fastify a request object and skips Node's HTTP parser: these tests send raw
// bytes over a real socket, where a client's malformed request meets the parser first.

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(() => t.close());

interface WireResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Complete responses at the start of `data`, read by their Content-Length. */
function parseResponses(data: Buffer): WireResponse[] {
  const responses: WireResponse[] = [];
  let rest = data;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) return responses;
    const [statusLine = '', ...headerLines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(
      headerLines.map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
      }),
    );
    const length = Number(headers['content-length'] ?? 0);
    if (rest.length < end + 4 + length) return responses;
    const body = rest.subarray(end + 4, end + 4 + length).toString('utf8');
    responses.push({ status: Number(statusLine.split(' ')[1]), headers, body });
    rest = rest.subarray(end + 4 + length);
  }
}

interface Exchange {
  responses: WireResponse[];
  /** Whether the server closed the connection before the wait was over. */
  closed: boolean;
}

/**
 * Sends `parts` on a fresh connection (one write each, a few ms apart) and reads until the server
 * closes it, or `responses` answers arrived, or `waitMs` passed: a test never hangs on a socket.
 */
function exchange(parts: string[], options: { end?: boolean; responses?: number; waitMs?: number } = {}) {
  return new Promise<Exchange>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ responses: parseResponses(Buffer.concat(chunks)), closed });
    };
    const timer = setTimeout(() => finish(false), options.waitMs ?? 3000);
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      const wanted = options.responses;
      if (wanted !== undefined && parseResponses(Buffer.concat(chunks)).length >= wanted) finish(false);
    });
    socket.on('close', () => finish(true));
    // The server may close while parts are still being written: that is what some tests expect.
    socket.on('error', () => {});
    socket.once('connect', async () => {
      for (const part of parts) {
        if (socket.destroyed || settled) return;
        socket.write(part);
        await new Promise((r) => setTimeout(r, 2));
      }
      if (options.end) socket.end();
    });
  });
}

/** Asserts one problem+json answer with this status and code, and that its request id is the header's. */
function expectWireProblem(response: WireResponse | undefined, status: number, code: string) {
  expect(response, 'no complete response').toBeDefined();
  const { headers, body } = response!;
  expect(response!.status, body).toBe(status);
  expect(headers['content-type']).toMatch(/^application\/problem\+json/);
  const problem = JSON.parse(body);
  expect(problem).toMatchObject({
    status,
    code,
    type: `urn:storefront:problem:${code}`,
    title: expect.any(String),
    detail: expect.any(String),
  });
  expect(problem.request_id).toBe(headers['x-request-id']);
  return problem;
}

const login = 'POST /user/storefront/api/login/ HTTP/1.1\r\nHost: shop\r\nContent-Type: application/json\r\n';
/** A request without a body; `headers` are extra header lines, each ending in CRLF. */
const get = (path: string, headers = '') => `GET ${path} HTTP/1.1\r\nHost: shop\r\n${headers}\r\n`;
const healthz = get('/healthz');

describe('requests the router refuses', () => {
  it('answers bad percent-encoding in the URL with 400 invalid_url_encoding and keeps the connection', async () => {
    const request = get('/product/storefront/api/products/%zz/');
    const { responses } = await exchange([request + healthz], { responses: 2 });
    expectWireProblem(responses[0], 400, 'invalid_url_encoding');
    expect(responses[1]?.status).toBe(200);
  });

  it('answers an HTTP/1.1 request without a Host header with 400 missing_host_header', async () => {
    const { responses } = await exchange(['GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n'], { responses: 1 });
    expectWireProblem(responses[0], 400, 'missing_host_header');
    expect(responses[0]?.headers['x-request-id']).toBeTruthy();
    const old = await exchange(['GET /healthz HTTP/1.0\r\n\r\n'], { responses: 1 });
    expect(old.responses[0]?.status).toBe(200);
  });

  it('answers a path parameter over 100 characters with 414 uri_too_long', async () => {
    const request = get(`/product/storefront/api/products/${'a'.repeat(101)}/`);
    const { responses } = await exchange([request], { responses: 1 });
    expectWireProblem(responses[0], 414, 'uri_too_long');
  });
});

describe('requests the HTTP parser refuses, answered and closed', () => {
  const cases: [string, string, number, string][] = [
    ['headers over the size limit', get('/healthz', `X-Big: ${'a'.repeat(20_000)}\r\n`), 431, 'headers_too_large'],
    ['a Content-Length that is not a number', `${login}Content-Length: abc\r\n\r\n{}`, 400, 'invalid_content_length'],
    [
      'two different Content-Lengths',
      `${login}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
      400,
      'invalid_content_length',
    ],
    [
      'Content-Length together with Transfer-Encoding',
      `${login}Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      400,
      'invalid_transfer_encoding',
    ],
    [
      'a malformed chunk size',
      `${login}Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      400,
      'invalid_chunked_encoding',
    ],
    ['a body longer than its Content-Length', `${login}Content-Length: 2\r\n\r\n{}xyz`, 400, 'malformed_request'],
    ['a control character in a header value', get('/healthz', 'X-Note: a\u0001b\r\n'), 400, 'invalid_header'],
    ['a control character in a header name', get('/healthz', 'X-N\u0001ote: ab\r\n'), 400, 'invalid_header'],
    ['bytes that are not HTTP', 'HELLO\r\n\r\n', 400, 'malformed_request'],
  ];
  const rows = cases.map(([name, request, status, code]) => ({ name, request, status, code }));
  it.each(rows)('answers $name with problem+json and closes the connection', async ({ request, status, code }) => {
    const { responses, closed } = await exchange([request]);
    // The bytes after the refused ones are never taken for a request: one answer, then the end.
    expect(responses).toHaveLength(1);
    expectWireProblem(responses[0], status, code);
    expect(responses[0]!.headers.connection).toBe('close');
    expect(closed).toBe(true);
  });

  it('answers a body short of its Content-Length, once the client stops, with 400 incomplete_request', async () => {
    const request = `${login}Content-Length: 50\r\n\r\n{"email":"a@b.co"}`;
    const { responses, closed } = await exchange([request], { end: true });
    expectWireProblem(responses[0], 400, 'incomplete_request');
    expect(closed).toBe(true);
  });
});

describe('a refusal that leaves body bytes unread closes the connection', () => {
  const estimate = 'GET /order/storefront/api/estimate/ HTTP/1.1\r\nHost: shop\r\nContent-Type: application/json\r\n';
  const chunk = `10000\r\n${'a'.repeat(0x10000)}\r\n`;

  it('closes after a 413 for a chunked body over 1 MiB on the estimate GET, instead of leaving it stuck', async () => {
    // Sent in parts, as a client streams it: the refusal comes while the body is still arriving.
    const head = `${estimate}Transfer-Encoding: chunked\r\n\r\n`;
    const parts = [head, ...Array<string>(24).fill(chunk), `0\r\n\r\n${healthz}`];
    const { responses, closed } = await exchange(parts);
    expectWireProblem(responses[0], 413, 'payload_too_large');
    expect(responses[0]!.headers.connection).toBe('close');
    expect(closed).toBe(true);
  });

  it('closes after a 413 for a Content-Length over 1 MiB on the estimate GET, not waiting for the body', async () => {
    const { responses, closed } = await exchange([`${estimate}Content-Length: 2000000\r\n\r\n{"variants":`]);
    expectWireProblem(responses[0], 413, 'payload_too_large');
    expect(closed).toBe(true);
  });

  it('closes after a 401 answered before the body was read', async () => {
    const products =
      'POST /product/dashboard/api/products/ HTTP/1.1\r\nHost: shop\r\n' + 'Content-Type: application/json\r\n';
    const { responses, closed } = await exchange([`${products}Content-Length: 100\r\n\r\n{"name":`]);
    expectWireProblem(responses[0], 401, 'unauthorized');
    expect(responses[0]!.headers.connection).toBe('close');
    expect(closed).toBe(true);
  });

  it('keeps the connection after a refusal of a body it read whole, and answers the next request on it', async () => {
    const { responses } = await exchange([`${login}Content-Length: 2\r\n\r\n{}${healthz}`], { responses: 2 });
    expectWireProblem(responses[0], 422, 'validation_error');
    expect(responses[0]!.headers.connection).toBe('keep-alive');
    expect(responses[1]?.status).toBe(200);
  });
});

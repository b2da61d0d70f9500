// The floor for write scenarios: a bare node:http server that runs one minimal transaction per
// request (BEGIN; one INSERT; COMMIT) on the same PostgreSQL database and pool size as the app.
// Run as a child process by bench/run.ts; PORT and DATABASE_URL configure it.
import { createServer } from 'node:http';
import pg from 'pg';

const port = Number(process.env.PORT ?? 8081);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
await pool.query(
  'create table if not exists bench_minimal '
    + '(id bigserial primary key, payload text not null, created_at timestamptz not null default now())',
);

async function minimalTransaction(): Promise<string> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const { rows } = await client.query<{ id: string }>(
      'insert into bench_minimal (payload) values ($1) returning id',
      ['order'],
    );
    await client.query('commit');
    return JSON.stringify({ id: Number(rows[0]?.id) });
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

const server = createServer((request, response) => {
  if (request.url === '/readyz') {
    response.writeHead(200).end('{}');
    return;
  }
  if (request.method !== 'POST' || request.url !== '/') {
    response.writeHead(404).end();
    return;
  }
  request.resume();
  minimalTransaction().then(
    (body) => response.writeHead(201, { 'content-type': 'application/json' }).end(body),
    () => response.writeHead(500).end(),
  );
});

server.listen(port, '127.0.0.1');
const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);

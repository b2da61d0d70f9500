import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAdmin } from '../src/auth/auth.service.js';
import { seedDemoIfEmpty } from '../src/demo/demo-seed.js';
import { loadConfig } from '../src/config.js';
import { currencyExponent } from '../src/shared/currency.js';
import { isExampleBlock, type ShellBlock, shellBlocks, shellCommands } from './doc-examples/markdown.js';
import { type ExamplesRun, runExamples } from './doc-examples/runner.js';
import { buildTestApp } from './helpers.js';

/** The admin README's "Demo store" tells readers to start the service with. */
const DEMO_ADMIN = { email: 'admin@example.com', password: 'demo admin password' };

const root = fileURLToPath(new URL('..', import.meta.url));
const docs = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
const blocksOf = (file: string) => shellBlocks(file, readFileSync(path.join(root, file), 'utf8'));
const totals = { ran: 0, calls: 0, skipped: [] as ExamplesRun['skipped'] };

/** A fresh `npm start` with ADMIN_EMAIL/ADMIN_PASSWORD: the demo store on a new database, listening. */
async function demoStore() {
  const defaults = loadConfig({ DATA_DIR: '/nonexistent-test-data-dir' });
  const t = await buildTestApp({
    config: {
      authRateLimitPerMinute: defaults.authRateLimitPerMinute,
      promoRateLimitPerMinute: defaults.promoRateLimitPerMinute,
    },
  });
  await seedDemoIfEmpty(t.database.db, currencyExponent(t.config.storeCurrency), t.config.storeCurrency);
  await ensureAdmin(t.database.db, DEMO_ADMIN);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, close: () => t.close() };
}

describe('curl examples of README.md and docs/*.md', () => {
  afterAll(() => {
    const skipped = totals.skipped.map((s) => `\n  not run: ${s.file}:${s.line}: ${s.reason}`).join('');
    console.log(`doc examples: ${totals.ran} ran (${totals.calls} requests)${skipped}`);
  });

  it.each(docs.filter((file) => blocksOf(file).some(isExampleBlock)))(
    '%s: every example answers as the doc says on a fresh demo store',
    async (file) => {
      const store = await demoStore();
      try {
        const result = await runExamples({ blocks: blocksOf(file), baseUrl: store.baseUrl });
        totals.ran += result.ran;
        totals.calls += result.calls;
        totals.skipped.push(...result.skipped);
        expect(result.problems).toEqual([]);
        expect(result.ran).toBeGreaterThan(0);
      } finally {
        await store.close();
      }
    },
    180_000,
  );

  it('finds the examples of the API docs', () => {
    const found = docs
      .flatMap(blocksOf)
      .filter(isExampleBlock)
      .map((b) => b.file);
    expect(found).toEqual(expect.arrayContaining(['README.md', 'docs/api.md', 'docs/admin-pricing.md']));
  });
});

describe('the doc-examples runner', () => {
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    // Answers /status/<code> with that status and a little JSON, like any API would.
    server = createServer((req, res) => {
      const status = Number(/^\/status\/(\d{3})/.exec(req.url ?? '')?.[1] ?? 404);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ status, token: 'abc' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const doc = (markdown: string) => shellBlocks('doc.md', markdown);
  const fence = (code: string, info = 'sh') => `Text.\n\n\`\`\`${info}\n${code}\n\`\`\`\n`;

  it('passes examples that answer 2xx, or the status their arrow comment announces', async () => {
    const result = await runExamples({
      baseUrl,
      blocks: doc(`${fence('curl -s localhost:8000/status/201 \\\n  -d \'{"a":\n1}\'\n# → 201 {"status":201}')}
${fence('TOKEN=$(curl -s localhost:8000/status/200 | jq -r .token)')}
${fence('curl -H "x: $TOKEN" localhost:8000/status/404  # → 404 not found')}`),
    });
    expect(result).toMatchObject({ problems: [], ran: 3, calls: 3 });
  });

  it('fails an example that gets a 5xx, an error it does not announce, or another status or code', async () => {
    const result = await runExamples({
      baseUrl,
      blocks: doc(
        fence(
          [
            'curl localhost:8000/status/500',
            'curl localhost:8000/status/500 # → 500',
            'curl localhost:8000/status/422',
            'curl localhost:8000/status/200',
            '# → 201 {"id":1}',
            'curl localhost:8000/status/409',
            '# → 409 {"code":"email_taken",…}',
          ].join('\n'),
        ),
      ),
    });
    expect(result.problems).toEqual([
      expect.stringMatching(/^doc\.md:4: curl .*status\/500 answered 500.*never get a 5xx/),
      expect.stringMatching(/^doc\.md:5: .*answered 500.*never get a 5xx/),
      expect.stringMatching(/^doc\.md:6: .*answered 422.*write "# → 422 …"/),
      expect.stringMatching(/^doc\.md:7: .*answered 200.*the doc says 201/),
      expect.stringMatching(/^doc\.md:9: .*answered 409.*the doc shows code email_taken/),
    ]);
  });

  it('fails examples that never ran because an earlier one stopped the shell', async () => {
    const result = await runExamples({
      baseUrl,
      blocks: doc(
        [fence('curl -s "localhost:8000/status/200?t=$UNSET_TOKEN"'), fence('curl localhost:8000/status/200')].join(
          '\n',
        ),
      ),
    });
    expect(result.problems).toEqual([
      expect.stringMatching(/^doc\.md:4: never ran/),
      expect.stringMatching(/^doc\.md:10: never ran/),
      expect.stringMatching(/stopped with exit 1: .*UNSET_TOKEN: unbound variable/),
    ]);
  });

  it('skips blocks marked no-run with a reason, and refuses the mark without one', async () => {
    const blocks = doc(
      [
        fence('curl localhost:8000/status/500', 'sh no-run: needs a real gateway'),
        fence('curl localhost:8000/status/500', 'sh no-run'),
      ].join('\n'),
    );
    const result = await runExamples({ baseUrl, blocks });
    expect(result.skipped).toEqual([
      { file: 'doc.md', line: 4, reason: 'needs a real gateway' },
      { file: 'doc.md', line: 10, reason: '' },
    ]);
    expect(result.problems).toEqual([expect.stringMatching(/^doc\.md:10: "no-run" needs a reason/)]);
    expect(result.calls).toBe(0);
  });

  it('reads jq filters without jq installed', async () => {
    const before = process.env.DOC_EXAMPLES_JQ_SUBSET;
    process.env.DOC_EXAMPLES_JQ_SUBSET = '1';
    try {
      const code = [
        'T=$(curl -s localhost:8000/status/200 | jq -r .token)',
        'curl "localhost:8000/status/$([ "$T" = abc ] && echo 204 || echo 400)"',
      ].join('\n');
      expect(await runExamples({ baseUrl, blocks: doc(fence(code)) })).toMatchObject({ problems: [], calls: 2 });
    } finally {
      if (before === undefined) delete process.env.DOC_EXAMPLES_JQ_SUBSET;
      else process.env.DOC_EXAMPLES_JQ_SUBSET = before;
    }
  });

  it('tells commands apart across continuations, quoted newlines and $( )', () => {
    const code = [
      'A=$(curl -s x \\',
      '  | jq .)',
      "curl -d '{",
      '"a": 1}\' y',
      '# → 409 {"code":"email_taken"}',
      'echo "# not a comment"',
    ];
    const [block] = doc(fence(code.join('\n'))) as [ShellBlock];
    const seen = shellCommands(block).map((c) => [
      c.startLine,
      c.endLine,
      c.callsCurl,
      c.expectedStatus,
      c.expectedCode,
    ]);
    expect(seen).toEqual([
      [4, 5, true, undefined, undefined],
      [6, 7, true, 409, 'email_taken'],
      [9, 9, false, undefined, undefined],
    ]);
  });
});

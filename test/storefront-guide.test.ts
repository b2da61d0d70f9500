import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoIfEmpty } from '../src/demo/demo-seed.js';
import { currencyExponent } from '../src/shared/currency.js';
import { hiddenFormFields } from './browser.js';
import { buildTestApp, type TestApp } from './helpers.js';

/**
 * docs/storefront-guide.md as a reader would use it: its TypeScript blocks saved as one file beside the generated
 * types, type-checked, and run against a demo store, with this test as the shopper who presses Pay.
 */
const root = path.resolve(import.meta.dirname, '..');
const guide = readFileSync(path.join(root, 'docs/storefront-guide.md'), 'utf8');
const program = [...guide.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]).join('\n');

let dir: string;
let store: TestApp;
let storeUrl: string;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => (port ? resolve(port) : reject(new Error('no port'))));
    });
  });
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sf-guide-'));
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  copyFileSync(path.join(root, 'web/api/schema.d.ts'), path.join(dir, 'schema.d.ts'));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(path.join(dir, 'storefront.ts'), program);
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      // As a storefront built with a bundler (Vite) compiles: `./schema` needs no extension there.
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        lib: ['ES2023'],
        types: ['node'],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
      },
      files: ['storefront.ts'],
    }),
  );
  const port = await freePort();
  storeUrl = `http://127.0.0.1:${port}`;
  // The sandbox's checkout links point at PUBLIC_BASE_URL: this store's own address.
  store = await buildTestApp({ config: { publicBaseUrl: storeUrl } });
  await seedDemoIfEmpty(store.database.db, currencyExponent(store.config.storeCurrency));
  await store.app.listen({ port, host: '127.0.0.1' });
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The shopper on the sandbox's checkout page: opens it and presses Pay. */
async function pressPay(url: string): Promise<void> {
  const page = await fetch(url);
  const fields = hiddenFormFields(await page.text());
  fields.set('decision', 'pay');
  const sent = await fetch(`${storeUrl}/payment/sandbox/checkout/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: fields.toString(),
    redirect: 'manual',
  });
  if (sent.status >= 400) throw new Error(`the sandbox refused the payment: ${sent.status} ${await sent.text()}`);
}

describe('docs/storefront-guide.md', () => {
  it('has its steps in TypeScript blocks', () => {
    for (const step of ['createClient<paths>', 'x-cart-token', 'idempotency-key', 'expected_total', 'start-payment']) {
      expect(program).toContain(step);
    }
  });

  it('type-checks against the generated client', () => {
    const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
    const checked = spawnSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8' });
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.status).toBe(0);
  }, 120_000);

  it('runs as written on the demo store: guest cart, sign-up with it, estimate, placement, paid', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'storefront.ts'], {
      cwd: dir,
      env: { ...process.env, STORE_URL: storeUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let paying: Promise<void> | undefined;
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /pay at (\S+)/.exec(output)?.[1];
      if (url !== undefined && paying === undefined) paying = pressPay(url);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    expect(await exited, output).toBe(0);
    await paying;
    expect(output).toMatch(/cart: 2 items, 29\.00 USD/);
    expect(output).toMatch(/total \d+\.\d{2} USD \(Save 10 % −2\.90; tax \d+\.\d{2}\)/);
    expect(output).toMatch(/order [0-9a-f-]{36}: pending, unpaid/);
    expect(output).toMatch(/order [0-9a-f-]{36}: paid, approved/);
  }, 120_000);
});

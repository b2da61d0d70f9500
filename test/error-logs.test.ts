import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactedPaths } from '../src/app.js';
import { adminApi } from './fixtures.js';
import { buildTestApp, expectProblem, json, signInAdmin, type TestApp } from './helpers.js';

const lines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  t = await buildTestApp({ logger: { level: 'info', stream, redact: { paths: redactedPaths, censor: '[redacted]' } } });
  // Before any insert is refused: the admin and the product the placement test orders.
  const admin = await signInAdmin(t);
  await adminApi(t, admin).product({
    name: 'Logged lamp',
    variants: [{ alias: 'logged-lamp', name: 'Lamp', price: '10.00', stock: 10 }],
  });
});
afterAll(() => t.close());

/** Makes every insert into `table` fail with a check violation, as a broken migration or a full disk would fail it. */
async function refuseInserts(table: 'users' | 'orders'): Promise<void> {
  await t.database.db.execute(sql.raw(`alter table ${table} add constraint refuse_${table} check (false) not valid`));
}

function errorLine(requestId: string) {
  const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  const line = entries.find((e) => e.reqId === requestId && e.level === 50);
  return line as { msg: string; err: Record<string, unknown> } | undefined;
}

describe('a database error on a 500', () => {
  it('is logged with its SQLSTATE, table, constraint and request id, without the email, password or hash', async () => {
    await refuseInserts('users');
    lines.length = 0;
    const email = 'private.person@example.com';
    const password = 'my very private password';
    const res = await t.app.inject({
      method: 'POST',
      url: '/user/storefront/api/signup/',
      headers: { 'x-request-id': 'db-error-1' },
      payload: { email, password, first_name: 'Prudence' },
    });
    expectProblem(res, 500, 'internal_error');

    const all = lines.join('\n');
    for (const personal of [email, password, '$argon2', 'Prudence', 'private.person']) {
      expect(all).not.toContain(personal);
    }
    const line = errorLine('db-error-1');
    expect(line?.msg).toBe('unhandled error');
    expect(line?.err).toMatchObject({ stack: expect.stringContaining('    at ') });
    const logged = JSON.stringify(line?.err);
    expect(logged).toContain('"code":"23514"');
    expect(logged).toContain('"constraint":"refuse_users"');
    expect(logged).toContain('"table":"users"');
  });

  it('of a failed placement is logged without the order, its email or its address', async () => {
    await refuseInserts('orders');
    lines.length = 0;
    const address = {
      first_name: 'Quentin',
      last_name: 'Quietly',
      street_address: '77 Hidden Lane',
      city: 'Smalltown',
      postal_code: '99501',
      state: 'AK',
      country: 'US',
      email: 'quentin.quietly@example.com',
      phone_number: '+1 907 555 0199',
    };
    const res = await t.app.inject({
      method: 'POST',
      url: '/order/storefront/api/guest-user-order-create/',
      headers: { 'x-request-id': 'db-error-2' },
      payload: { variants: [{ alias: 'logged-lamp', quantity: 1 }], shipping_address: address, note: 'ring twice' },
    });
    expectProblem(res, 500, 'internal_error');
    expect(json(res).request_id).toBe('db-error-2');

    const all = lines.join('\n');
    // Digits alone could turn up in a timestamp; every other value of the address must not turn up at all.
    const personal = [...Object.values(address).filter((v) => /[a-z ]/i.test(v) && v.length > 2), 'ring twice'];
    for (const value of personal) expect(all).not.toContain(value);
    const line = errorLine('db-error-2');
    expect(line?.msg).toBe('unhandled error');
    expect(JSON.stringify(line?.err)).toContain('"code":"23514"');
  });
});

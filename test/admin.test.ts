import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAdmin } from '../src/auth/auth.service.js';
import { buildTestApp, json, signUp, type TestApp, uniqueEmail } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const login = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/user/storefront/api/login/', payload: { email, password } });

describe('ensureAdmin', () => {
  it('creates an admin who can sign in, and is idempotent', async () => {
    const email = uniqueEmail('boss');
    expect((await ensureAdmin(t.database.db, { email, password: 'first password' })).created).toBe(true);
    expect((await ensureAdmin(t.database.db, { email, password: 'first password' })).created).toBe(false);
    const res = await login(email, 'first password');
    expect(json(res).user.role).toBe('admin');
  });

  it('resets the password when the configured one changed', async () => {
    const email = uniqueEmail('boss');
    await ensureAdmin(t.database.db, { email, password: 'old password' });
    await ensureAdmin(t.database.db, { email, password: 'new password' });
    expect((await login(email, 'old password')).statusCode).toBe(401);
    expect((await login(email, 'new password')).statusCode).toBe(200);
  });

  it('promotes an existing customer', async () => {
    const customer = await signUp(t.app, uniqueEmail(), 'customer password');
    await ensureAdmin(t.database.db, { email: customer.email.toUpperCase(), password: 'customer password' });
    expect(json(await login(customer.email, 'customer password')).user.role).toBe('admin');
  });
});

import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  buildTestApp,
  expectProblem,
  json,
  signUp,
  TEST_JWT_SECRET,
  type TestApp,
  uniqueEmail,
} from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });
const signupUrl = '/user/storefront/api/signup/';
const loginUrl = '/user/storefront/api/login/';
const refreshUrl = '/user/storefront/api/token/refresh/';
const meUrl = '/user/storefront/api/me/';

describe('signup', () => {
  it('creates a customer with a normalised email and returns tokens', async () => {
    const res = await post(signupUrl, {
      email: '  New.Person@Example.COM ',
      password: 'password1',
      first_name: 'Ada',
      last_name: 'Lovelace',
    });
    expect(res.statusCode).toBe(201);
    const body = json(res);
    expect(body.user).toEqual({
      id: expect.any(Number),
      email: 'new.person@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      role: 'customer',
    });
    expect(body.access).toEqual(expect.any(String));
    expect(body.refresh).toEqual(expect.any(String));
    expect(res.body).not.toContain('password');
  });

  it('refuses an email that is taken, whatever its case, with 409', async () => {
    const email = uniqueEmail();
    await signUp(t.app, email);
    expectProblem(await post(signupUrl, { email: email.toUpperCase(), password: 'password1' }), 409, 'email_taken');
  });

  it('lets exactly one of many concurrent signups with one email through', async () => {
    const email = uniqueEmail('race');
    const results = await Promise.all(
      Array.from({ length: 8 }, () => post(signupUrl, { email, password: 'password1' })),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    for (const r of results.filter((x) => x.statusCode !== 201)) expectProblem(r, 409, 'email_taken');
  });

  it.each([
    [{ email: 'no-at-sign', password: 'password1' }, 'email'],
    [{ email: 'a@b', password: 'password1' }, 'email'],
    [{ email: 'a b@c.com', password: 'password1' }, 'email'],
    [{ email: 'a@b.co', password: 'short' }, 'password'],
    [{ email: 'a@b.co', password: 'password1', first_name: 'x'.repeat(101) }, 'first_name'],
    [{ email: 'a@b.co', password: 'password1', role: 'admin' }, 'role'],
    [{ email: 'a@b.co' }, 'password'],
    [{ password: 'password1' }, 'email'],
    [{ email: ['a@b.co'], password: 'password1' }, 'email'],
  ])('refuses %o with 422 naming %s', async (payload, field) => {
    const body = expectProblem(await post(signupUrl, payload), 422, 'validation_error');
    expect(body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('never lets a signup choose the admin role', async () => {
    expectProblem(
      await post(signupUrl, { email: uniqueEmail(), password: 'password1', role: 'admin' }),
      422,
      'validation_error',
    );
  });
});

describe('login', () => {
  it('signs in with the right password, whatever the email case', async () => {
    const email = uniqueEmail();
    await signUp(t.app, email, 'right password');
    const res = await post(loginUrl, { email: ` ${email.toUpperCase()}`, password: 'right password' });
    expect(res.statusCode).toBe(200);
    expect(json(res).user.email).toBe(email);
  });

  it('answers a wrong password and an unknown email identically with 401', async () => {
    const email = uniqueEmail();
    await signUp(t.app, email, 'right password');
    const wrong = expectProblem(
      await post(loginUrl, { email, password: 'wrong password' }),
      401,
      'invalid_credentials',
    );
    const unknown = expectProblem(
      await post(loginUrl, { email: uniqueEmail('nobody'), password: 'whatever1' }),
      401,
      'invalid_credentials',
    );
    expect({ ...wrong, request_id: 0 }).toEqual({ ...unknown, request_id: 0 });
  });

  it('refuses a body without a password with 422', async () => {
    expectProblem(await post(loginUrl, { email: 'a@b.co' }), 422, 'validation_error');
  });
});

describe('tokens', () => {
  it('returns the user on /me with a valid access token', async () => {
    const user = await signUp(t.app);
    const res = await t.app.inject({ method: 'GET', url: meUrl, headers: bearer(user.access) });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({ id: user.id, email: user.email, role: 'customer' });
  });

  it('answers /me without a token with 401 unauthorized', async () => {
    expectProblem(await t.app.inject({ method: 'GET', url: meUrl }), 401, 'unauthorized');
  });

  it.each([
    ['a garbage token', 'Bearer not.a.jwt'],
    ['a scheme other than Bearer', 'Basic dXNlcjpwYXNz'],
    ['an empty Bearer', 'Bearer '],
  ])('answers %s with 401 invalid_token', async (_label, authorization) => {
    expectProblem(await t.app.inject({ method: 'GET', url: meUrl, headers: { authorization } }), 401, 'invalid_token');
  });

  it('answers an invalid token with 401 even on a route open to guests', async () => {
    expectProblem(
      await t.app.inject({
        method: 'POST',
        url: loginUrl,
        payload: { email: 'a@b.co', password: 'x' },
        headers: bearer('nope'),
      }),
      401,
      'invalid_token',
    );
  });

  it('refuses a token signed with another key, an expired one, and one with alg none', async () => {
    const user = await signUp(t.app);
    const forged = await new SignJWT({ role: 'admin' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('storefront')
      .setAudience('storefront:access')
      .setSubject(String(user.id))
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('another-secret-of-at-least-32-bytes!!'));
    const expired = await new SignJWT({ role: 'customer' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('storefront')
      .setAudience('storefront:access')
      .setSubject(String(user.id))
      .setIssuedAt(1_000_000)
      .setExpirationTime(1_000_900)
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(
      JSON.stringify({ role: 'admin', sub: String(user.id), aud: 'storefront:access', iss: 'storefront' }),
    ).toString('base64url');
    for (const token of [forged, expired, `${header}.${payload}.`]) {
      expectProblem(await t.app.inject({ method: 'GET', url: meUrl, headers: bearer(token) }), 401, 'invalid_token');
    }
  });

  it('does not accept a refresh token as an access token', async () => {
    const user = await signUp(t.app);
    expectProblem(
      await t.app.inject({ method: 'GET', url: meUrl, headers: bearer(user.refresh) }),
      401,
      'invalid_token',
    );
  });

  it('does not accept an access token as a refresh token', async () => {
    const user = await signUp(t.app);
    expectProblem(await post(refreshUrl, { refresh: user.access }), 401, 'invalid_token');
  });

  it('rotates the refresh token: the new pair works and the old refresh token is refused', async () => {
    const user = await signUp(t.app);
    const first = await post(refreshUrl, { refresh: user.refresh });
    expect(first.statusCode).toBe(200);
    const pair = json(first);
    expect(pair.refresh).not.toBe(user.refresh);
    expect((await t.app.inject({ method: 'GET', url: meUrl, headers: bearer(pair.access) })).statusCode).toBe(200);
    expectProblem(await post(refreshUrl, { refresh: user.refresh }), 401, 'invalid_token');
  });

  it('revokes the whole token family when a used refresh token is presented again', async () => {
    const user = await signUp(t.app);
    const next = json(await post(refreshUrl, { refresh: user.refresh }));
    expectProblem(await post(refreshUrl, { refresh: user.refresh }), 401, 'invalid_token'); // replay: theft suspected
    expectProblem(await post(refreshUrl, { refresh: next.refresh }), 401, 'invalid_token'); // the thief's pair dies too
  });

  it('lets only one of several concurrent refreshes with the same token succeed', async () => {
    const user = await signUp(t.app);
    const results = await Promise.all(Array.from({ length: 6 }, () => post(refreshUrl, { refresh: user.refresh })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
  });

  it('keeps the sessions of other users working when one family is revoked', async () => {
    const a = await signUp(t.app);
    const b = await signUp(t.app);
    await post(refreshUrl, { refresh: a.refresh });
    await post(refreshUrl, { refresh: a.refresh });
    expect((await post(refreshUrl, { refresh: b.refresh })).statusCode).toBe(200);
  });

  it('refuses a malformed refresh request', async () => {
    expectProblem(await post(refreshUrl, {}), 422, 'validation_error');
    expectProblem(await post(refreshUrl, { refresh: 'garbage' }), 401, 'invalid_token');
  });
});

describe('rate limits', () => {
  it('answers the request over the limit with 429 problem+json and Retry-After', async () => {
    const limited = await buildTestApp({ config: { authRateLimitPerMinute: 3 } });
    try {
      const attempt = () =>
        limited.app.inject({ method: 'POST', url: loginUrl, payload: { email: 'a@b.co', password: 'whatever1' } });
      for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(401);
      const res = await attempt();
      expectProblem(res, 429, 'rate_limited');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      // Signup and refresh have limits of their own.
      expect(
        (await limited.app.inject({ method: 'POST', url: refreshUrl, payload: { refresh: 'x' } })).statusCode,
      ).toBe(401);
    } finally {
      await limited.close();
    }
  });
});

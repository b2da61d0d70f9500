import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ADDRESSES_PER_USER } from '../src/addresses/addresses.repository.js';
import { bearer, buildTestApp, expectProblem, json, type SignedIn, signUp, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const base = '/user/storefront/api/addresses/';
const home = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  street_address: '12 St James Sq',
  city: 'London',
  postal_code: 'SW1Y 4JH',
  state: '',
  country: 'gb',
  email: 'Ada@Example.com',
  phone_number: '+44 20 7946 0000',
};

async function create(user: SignedIn, payload: object = home) {
  return t.app.inject({ method: 'POST', url: base, headers: bearer(user.access), payload });
}

describe('stored addresses', () => {
  it('creates, reads, lists, changes and deletes an address', async () => {
    const user = await signUp(t.app);
    const created = await create(user);
    expect(created.statusCode).toBe(201);
    const address = json(created);
    expect(address).toEqual({
      id: expect.any(Number),
      ...home,
      country: 'GB',
      email: 'ada@example.com',
      is_default: true,
    });

    const one = await t.app.inject({ method: 'GET', url: `${base}${address.id}/`, headers: bearer(user.access) });
    expect(json(one)).toEqual(address);

    const patched = await t.app.inject({
      method: 'PATCH',
      url: `${base}${address.id}/`,
      headers: bearer(user.access),
      payload: { city: 'Oxford', postal_code: 'OX1 1AA' },
    });
    expect(json(patched)).toEqual({ ...address, city: 'Oxford', postal_code: 'OX1 1AA' });

    const list = await t.app.inject({ method: 'GET', url: base, headers: bearer(user.access) });
    expect(json(list)).toEqual([{ ...address, city: 'Oxford', postal_code: 'OX1 1AA' }]);

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `${base}${address.id}/`,
      headers: bearer(user.access),
    });
    expect(deleted.statusCode).toBe(204);
    expect(json(await t.app.inject({ method: 'GET', url: base, headers: bearer(user.access) }))).toEqual([]);
    expectProblem(
      await t.app.inject({ method: 'GET', url: `${base}${address.id}/`, headers: bearer(user.access) }),
      404,
      'not_found',
    );
  });

  it('keeps exactly one default address', async () => {
    const user = await signUp(t.app);
    const first = json(await create(user));
    const second = json(await create(user, { ...home, city: 'Paris', country: 'FR', is_default: true }));
    const third = json(await create(user, { ...home, city: 'Rome', country: 'IT' }));
    expect([first.is_default, second.is_default, third.is_default]).toEqual([true, true, false]);
    const list = json(await t.app.inject({ method: 'GET', url: base, headers: bearer(user.access) }));
    expect(list.filter((a: { is_default: boolean }) => a.is_default).map((a: { id: number }) => a.id)).toEqual([
      second.id,
    ]);

    await t.app.inject({ method: 'DELETE', url: `${base}${second.id}/`, headers: bearer(user.access) });
    const after = json(await t.app.inject({ method: 'GET', url: base, headers: bearer(user.access) }));
    expect(after.filter((a: { is_default: boolean }) => a.is_default).map((a: { id: number }) => a.id)).toEqual([
      first.id,
    ]);
  });

  it("shows another user's address as not found on every operation", async () => {
    const owner = await signUp(t.app);
    const intruder = await signUp(t.app);
    const address = json(await create(owner));
    const url = `${base}${address.id}/`;
    expectProblem(await t.app.inject({ method: 'GET', url, headers: bearer(intruder.access) }), 404, 'not_found');
    expectProblem(
      await t.app.inject({ method: 'PATCH', url, headers: bearer(intruder.access), payload: { city: 'Evil' } }),
      404,
      'not_found',
    );
    expectProblem(await t.app.inject({ method: 'DELETE', url, headers: bearer(intruder.access) }), 404, 'not_found');
    expect(json(await t.app.inject({ method: 'GET', url: base, headers: bearer(intruder.access) }))).toEqual([]);
    expect(json(await t.app.inject({ method: 'GET', url, headers: bearer(owner.access) })).city).toBe('London');
  });

  it('requires a signed-in user', async () => {
    expectProblem(await t.app.inject({ method: 'GET', url: base }), 401, 'unauthorized');
    expectProblem(await t.app.inject({ method: 'POST', url: base, payload: home }), 401, 'unauthorized');
    expectProblem(await t.app.inject({ method: 'DELETE', url: `${base}1/` }), 401, 'unauthorized');
  });

  it.each([
    [{ ...home, country: 'XX' }, 'country'],
    [{ ...home, country: 'USA' }, 'country'],
    [{ ...home, city: '' }, 'city'],
    [{ ...home, first_name: '   ' }, 'first_name'],
    [{ ...home, email: 'not-an-email' }, 'email'],
    [{ ...home, zip: '12345' }, 'zip'],
    [{ ...home, postal_code: 12345 }, 'postal_code'],
    [{ ...home, is_default: 'yes' }, 'is_default'],
    [{ city: 'London', country: 'GB' }, 'street_address'],
  ])('refuses %o with 422 naming the field', async (payload, field) => {
    const user = await signUp(t.app);
    const body = expectProblem(await create(user, payload), 422, 'validation_error');
    expect(body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('refuses a patch that blanks a required field or names an unknown one', async () => {
    const user = await signUp(t.app);
    const address = json(await create(user));
    const url = `${base}${address.id}/`;
    expectProblem(
      await t.app.inject({ method: 'PATCH', url, headers: bearer(user.access), payload: { street_address: ' ' } }),
      422,
      'validation_error',
    );
    expectProblem(
      await t.app.inject({ method: 'PATCH', url, headers: bearer(user.access), payload: { id: 99 } }),
      422,
      'validation_error',
    );
    expect(json(await t.app.inject({ method: 'GET', url, headers: bearer(user.access) }))).toEqual(address);
  });

  it.each(['abc', '0', '-1', '1.5', '99999999999'])('answers the path id %s with 422', async (id) => {
    const user = await signUp(t.app);
    expectProblem(
      await t.app.inject({ method: 'GET', url: `${base}${id}/`, headers: bearer(user.access) }),
      422,
      'validation_error',
    );
  });

  it('holds the per-user cap under concurrent creation', async () => {
    const user = await signUp(t.app);
    const results = await Promise.all(Array.from({ length: MAX_ADDRESSES_PER_USER + 10 }, () => create(user)));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(MAX_ADDRESSES_PER_USER);
    for (const r of results.filter((x) => x.statusCode !== 201)) expectProblem(r, 422, 'address_limit_reached');
    const list = json(await t.app.inject({ method: 'GET', url: base, headers: bearer(user.access) }));
    expect(list).toHaveLength(MAX_ADDRESSES_PER_USER);
    expect(list.filter((a: { is_default: boolean }) => a.is_default)).toHaveLength(1);
  });
});

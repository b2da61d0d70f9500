import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products } from '../src/db/schema.js';
import { adminApi } from './fixtures.js';
import {
  bearer,
  buildTestApp,
  expectProblem,
  json,
  type SignedIn,
  signInAdmin,
  signUp,
  type TestApp,
} from './helpers.js';

let t: TestApp;
let admin: SignedIn;
let customer: SignedIn;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await signInAdmin(t);
  customer = await signUp(t.app);
});
afterAll(() => t.close());

const base = '/tax/dashboard/api';
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
/** Requests to this admin API as `token` (the admin by default) on `app` (this file's store by default). */
const callAs =
  ({ token = admin.access, app = t }: { token?: string; app?: Pick<TestApp, 'app'> } = {}) =>
  (method: Method, url: string, payload?: object) =>
    app.app.inject({ method, url: `${base}${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
const call = (method: Method, url: string, payload?: object) => callAs()(method, url, payload);

let nameCounter = 0;
const newClass = (name = `Class ${++nameCounter}`) => adminApi(t, admin).taxClass({ name });
const fields = (body: { errors: { field: string }[] }) => body.errors.map((e) => e.field);

describe('tax classes', () => {
  it('creates, lists, reads, renames and deletes a tax class', async () => {
    const created = await newClass('  Standard  ');
    expect(created).toMatchObject({ name: 'Standard' });
    expect(typeof created.id).toBe('number');
    const url = `/tax-classes/${created.id}/`;
    expect(json(await call('GET', url))).toEqual(created);
    expect(json(await call('GET', '/tax-classes/')).map((c: { id: number }) => c.id)).toContain(created.id);

    const renamed = json(await call('PATCH', url, { name: 'Standard rate' }));
    expect(renamed).toMatchObject({ id: created.id, name: 'Standard rate' });

    expect((await call('DELETE', url)).statusCode).toBe(204);
    expectProblem(await call('GET', url), 404, 'tax_class_not_found');
    expectProblem(await call('DELETE', url), 404, 'tax_class_not_found');
    expectProblem(await call('PATCH', url, { name: 'Gone' }), 404, 'tax_class_not_found');
  });

  it('refuses a second class with the same name in any case with 409 tax_class_taken', async () => {
    const first = await newClass('Reduced');
    expectProblem(await call('POST', '/tax-classes/', { name: 'reduced' }), 409, 'tax_class_taken');
    const other = await newClass('Zero');
    expectProblem(await call('PATCH', `/tax-classes/${other.id}/`, { name: ' REDUCED ' }), 409, 'tax_class_taken');
    expect(json(await call('PATCH', `/tax-classes/${first.id}/`, { name: 'REDUCED' })).name).toBe('REDUCED');
  });

  it.each([
    [{}, 'name'],
    [{ name: '' }, 'name'],
    [{ name: '   ' }, 'name'],
    [{ name: 5 }, 'name'],
    [{ name: 'Ok', colour: 'red' }, 'colour'],
  ])('refuses %o with 422 naming %s', async (payload, field) => {
    expect(fields(expectProblem(await call('POST', '/tax-classes/', payload), 422, 'validation_error'))).toContain(
      field,
    );
  });

  it('untaxes the products of a deleted class and deletes its rates', async () => {
    const doomed = await newClass();
    const rate = json(await call('POST', '/tax-rates/', { tax_class_id: doomed.id, country: 'DE', rate: '19' }));
    const [product] = await t.database.db
      .insert(products)
      .values({ name: 'Taxed thing', handle: 'taxed-thing', taxClassId: doomed.id })
      .returning();
    expect((await call('DELETE', `/tax-classes/${doomed.id}/`)).statusCode).toBe(204);
    const [after] = await t.database.db
      .select()
      .from(products)
      .where(eq(products.id, product?.id ?? 0));
    expect(after?.taxClassId).toBeNull();
    expectProblem(await call('GET', `/tax-rates/${rate.id}/`), 404, 'tax_rate_not_found');
  });
});

describe('tax rates', () => {
  it('creates a rate with upper-cased country, trimmed state and a canonical rate string', async () => {
    const cls = await newClass();
    const res = await call('POST', '/tax-rates/', {
      tax_class_id: cls.id,
      country: 'us',
      state: ' CA ',
      rate: '7.2500',
    });
    expect(res.statusCode).toBe(201);
    expect(json(res)).toMatchObject({
      tax_class_id: cls.id,
      country: 'US',
      state: 'CA',
      rate: '7.25',
      is_active: true,
    });
    const whole = json(
      await call('POST', '/tax-rates/', { tax_class_id: cls.id, country: 'US', rate: '15', is_active: false }),
    );
    expect(whole).toMatchObject({ state: '', rate: '15', is_active: false });
  });

  it.each([
    ['15', '15'],
    ['7.25', '7.25'],
    ['0.0001', '0.0001'],
    ['0', '0'],
    ['100', '100'],
    ['100.0000', '100'],
    ['5.5000', '5.5'],
  ])('takes the rate "%s" and shows it as "%s"', async (rate, shown) => {
    const cls = await newClass();
    const created = json(await call('POST', '/tax-rates/', { tax_class_id: cls.id, country: 'FR', rate }));
    expect(created.rate).toBe(shown);
    expect(json(await call('GET', `/tax-rates/${created.id}/`)).rate).toBe(shown);
  });

  it.each([
    [15, 'a number'],
    ['-1', 'negative'],
    ['100.0001', 'over 100'],
    ['101', 'over 100'],
    ['7.12345', '5 decimals'],
    ['1e2', 'exponent'],
    ['', 'empty'],
    ['7,5', 'comma'],
    ['1000', '4 whole digits'],
  ] as [string | number, string][])('refuses the rate %o (%s) with 422 on rate', async (rate) => {
    const cls = await newClass();
    const body = expectProblem(
      await call('POST', '/tax-rates/', { tax_class_id: cls.id, country: 'FR', rate }),
      422,
      'validation_error',
    );
    expect(fields(body)).toEqual(['rate']);
  });

  it.each([
    [{ country: 'XX' }, 'country'],
    [{ country: 'USA' }, 'country'],
    [{ country: 12 }, 'country'],
    [{ tax_class_id: 999999 }, 'tax_class_id'],
    [{ tax_class_id: '1' }, 'tax_class_id'],
    [{ is_active: 'yes' }, 'is_active'],
    [{ region: 'EU' }, 'region'],
  ])('refuses %o with 422 naming %s', async (change, field) => {
    const cls = await newClass();
    const payload = { tax_class_id: cls.id, country: 'FR', rate: '20', ...change };
    expect(fields(expectProblem(await call('POST', '/tax-rates/', payload), 422, 'validation_error'))).toContain(field);
  });

  it('reports a bad country and a bad rate together', async () => {
    const cls = await newClass();
    const body = expectProblem(
      await call('POST', '/tax-rates/', { tax_class_id: cls.id, country: 'XX', rate: '101' }),
      422,
      'validation_error',
    );
    expect(fields(body)).toEqual(['country', 'rate']);
  });

  it('refuses a second rate for the same class, country and state (any case) with 409 tax_rate_exists', async () => {
    const cls = await newClass();
    await call('POST', '/tax-rates/', { tax_class_id: cls.id, country: 'US', state: 'NY', rate: '4' });
    await call('POST', '/tax-rates/', { tax_class_id: cls.id, country: 'US', rate: '0' });
    expectProblem(
      await call('POST', '/tax-rates/', { tax_class_id: cls.id, country: 'us', state: 'ny', rate: '5' }),
      409,
      'tax_rate_exists',
    );
    expectProblem(
      await call('POST', '/tax-rates/', { tax_class_id: cls.id, country: 'US', state: '  ', rate: '5' }),
      409,
      'tax_rate_exists',
    );
    const other = await newClass();
    expect(
      (await call('POST', '/tax-rates/', { tax_class_id: other.id, country: 'US', state: 'NY', rate: '4' })).statusCode,
    ).toBe(201);
    const texas = json(
      await call('POST', '/tax-rates/', { tax_class_id: cls.id, country: 'US', state: 'TX', rate: '6.25' }),
    );
    expectProblem(await call('PATCH', `/tax-rates/${texas.id}/`, { state: 'Ny' }), 409, 'tax_rate_exists');
  });

  it('changes and deletes a rate', async () => {
    const cls = await newClass();
    const other = await newClass();
    const rate = json(await call('POST', '/tax-rates/', { tax_class_id: cls.id, country: 'IT', rate: '22' }));
    const url = `/tax-rates/${rate.id}/`;
    const patched = json(
      await call('PATCH', url, {
        rate: '10.0',
        is_active: false,
        tax_class_id: other.id,
        state: 'Sicily',
        country: 'it',
      }),
    );
    expect(patched).toMatchObject({
      rate: '10',
      is_active: false,
      tax_class_id: other.id,
      state: 'Sicily',
      country: 'IT',
    });
    expect(json(await call('PATCH', url, {}))).toMatchObject({ rate: '10', state: 'Sicily' });
    expect(fields(expectProblem(await call('PATCH', url, { rate: '120' }), 422, 'validation_error'))).toEqual(['rate']);
    expect(fields(expectProblem(await call('PATCH', url, { tax_class_id: 999999 }), 422, 'validation_error'))).toEqual([
      'tax_class_id',
    ]);
    expect((await call('DELETE', url)).statusCode).toBe(204);
    expectProblem(await call('GET', url), 404, 'tax_rate_not_found');
    expectProblem(await call('PATCH', url, { rate: '1' }), 404, 'tax_rate_not_found');
    expectProblem(await call('DELETE', url), 404, 'tax_rate_not_found');
  });

  it('lists rates filtered by class and country', async () => {
    const cls = await newClass();
    const other = await newClass();
    const es = json(await call('POST', '/tax-rates/', { tax_class_id: cls.id, country: 'ES', rate: '21' }));
    const pt = json(await call('POST', '/tax-rates/', { tax_class_id: cls.id, country: 'PT', rate: '23' }));
    const otherEs = json(await call('POST', '/tax-rates/', { tax_class_id: other.id, country: 'ES', rate: '10' }));
    const ids = async (query: string) =>
      json(await call('GET', `/tax-rates/${query}`)).map((r: { id: number }) => r.id);
    expect(await ids(`?tax_class_id=${cls.id}`)).toEqual([es.id, pt.id]);
    expect(await ids(`?tax_class_id=${cls.id}&country=es`)).toEqual([es.id]);
    expect(await ids('?country=ES')).toEqual(expect.arrayContaining([es.id, otherEs.id]));
    expect(await ids('?country=ES')).not.toContain(pt.id);
    expectProblem(await call('GET', '/tax-rates/?country=XX'), 422, 'validation_error');
    expectProblem(await call('GET', '/tax-rates/?tax_class_id=abc'), 422, 'validation_error');
  });
});

describe('default tax rates (tax_class_id null)', () => {
  const createRate = (payload: object) => call('POST', '/tax-rates/', payload);
  const ids = async (query: string) => json(await call('GET', `/tax-rates/${query}`)).map((r: { id: number }) => r.id);
  it('creates, reads and lists a default rate with tax_class_id null', async () => {
    const res = await call('POST', '/tax-rates/', { tax_class_id: null, country: 'nl', rate: '21.0' });
    expect(res.statusCode, res.body).toBe(201);
    const created = json(res);
    expect(created).toMatchObject({ tax_class_id: null, country: 'NL', state: '', rate: '21', is_active: true });
    expect(json(await call('GET', `/tax-rates/${created.id}/`))).toEqual(created);
    expect(json(await call('GET', '/tax-rates/?country=NL'))).toEqual([created]);
  });

  it('filters the default rates with ?tax_class_id=null', async () => {
    const cls = await newClass();
    const def = json(await call('POST', '/tax-rates/', { tax_class_id: null, country: 'BE', rate: '21' }));
    const own = json(await call('POST', '/tax-rates/', { tax_class_id: cls.id, country: 'BE', rate: '6' }));
    expect(await ids('?tax_class_id=null&country=BE')).toEqual([def.id]);
    expect(await ids(`?tax_class_id=${cls.id}&country=BE`)).toEqual([own.id]);
    expect(await ids('?country=BE')).toEqual([def.id, own.id]);
    expect(
      fields(expectProblem(await call('GET', '/tax-rates/?tax_class_id=none'), 422, 'validation_error')),
    ).toContain('querystring.tax_class_id');
  });

  it('refuses a second default rate for the same country and state (any case) with 409 tax_rate_exists', async () => {
    await call('POST', '/tax-rates/', { tax_class_id: null, country: 'CA', rate: '5' });
    const quebec = json(await createRate({ tax_class_id: null, country: 'CA', state: 'QC', rate: '14.975' }));
    expect(quebec).toMatchObject({ tax_class_id: null, state: 'QC', rate: '14.975' });
    const again = await createRate({ tax_class_id: null, country: 'ca', rate: '6' });
    expect(expectProblem(again, 409, 'tax_rate_exists').detail).toMatch(/default rate/);
    const quebecAgain = await createRate({ tax_class_id: null, country: 'CA', state: ' qc ', rate: '6' });
    expectProblem(quebecAgain, 409, 'tax_rate_exists');
    // A class's own rate for the same place is no conflict, and neither is a default for another state.
    const cls = await newClass();
    expect((await createRate({ tax_class_id: cls.id, country: 'CA', state: 'QC', rate: '5' })).statusCode).toBe(201);
    const ontario = json(await createRate({ tax_class_id: null, country: 'CA', state: 'ON', rate: '13' }));
    expectProblem(await call('PATCH', `/tax-rates/${ontario.id}/`, { state: 'qc' }), 409, 'tax_rate_exists');
  });

  it('turns a class rate into a default rate and back with PATCH', async () => {
    const cls = await newClass();
    const rate = json(await call('POST', '/tax-rates/', { tax_class_id: cls.id, country: 'AT', rate: '20' }));
    const url = `/tax-rates/${rate.id}/`;
    expect(json(await call('PATCH', url, { tax_class_id: null }))).toMatchObject({ tax_class_id: null, rate: '20' });
    expect(json(await call('PATCH', url, { rate: '19' }))).toMatchObject({ tax_class_id: null, rate: '19' });
    expect(json(await call('PATCH', url, { tax_class_id: cls.id }))).toMatchObject({ tax_class_id: cls.id });
  });

  it('keeps default rates when a class is deleted', async () => {
    const cls = await newClass();
    const def = json(await call('POST', '/tax-rates/', { tax_class_id: null, country: 'SE', rate: '25' }));
    await call('POST', '/tax-rates/', { tax_class_id: cls.id, country: 'SE', rate: '12' });
    expect((await call('DELETE', `/tax-classes/${cls.id}/`)).statusCode).toBe(204);
    expect(json(await call('GET', '/tax-rates/?country=SE'))).toEqual([def]);
  });

  it.each([
    [{ rate: '21' }, 'tax_class_id'],
    [{ tax_class_id: 'null', rate: '21' }, 'tax_class_id'],
    [{ tax_class_id: null, rate: '101' }, 'rate'],
    [{ tax_class_id: null, rate: '21', country: 'XX' }, 'country'],
  ])('refuses %o with 422 naming %s', async (change, field) => {
    const refused = await createRate({ country: 'DK', ...change });
    expect(fields(expectProblem(refused, 422, 'validation_error'))).toContain(field);
  });
});

describe('tax admin access', () => {
  it.each([
    ['GET', '/tax-classes/'],
    ['POST', '/tax-classes/'],
    ['GET', '/tax-classes/1/'],
    ['PATCH', '/tax-classes/1/'],
    ['DELETE', '/tax-classes/1/'],
    ['GET', '/tax-rates/'],
    ['POST', '/tax-rates/'],
    ['GET', '/tax-rates/1/'],
    ['PATCH', '/tax-rates/1/'],
    ['DELETE', '/tax-rates/1/'],
  ] as const)('%s %s answers 401 without a token and 403 to a customer', async (method, url) => {
    expectProblem(await t.app.inject({ method, url: `${base}${url}`, payload: {} }), 401, 'unauthorized');
    expectProblem(await callAs({ token: customer.access })(method, url, {}), 403, 'forbidden');
  });

  it('validates path ids', async () => {
    expectProblem(await call('GET', '/tax-classes/abc/'), 422, 'validation_error');
    expectProblem(await call('GET', '/tax-rates/0/'), 422, 'validation_error');
    expectProblem(await call('GET', '/tax-rates/99999999999/'), 422, 'validation_error');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, type ShippingMethodInput, type ShippingRateInput } from './fixtures.js';
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

const base = '/shipping/dashboard/api';
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
/** Requests to this admin API as `token` (the admin by default) on `app` (this file's store by default). */
const callAs =
  ({ token = admin.access, app = t }: { token?: string; app?: Pick<TestApp, 'app'> } = {}) =>
  (method: Method, url: string, payload?: object) =>
    app.app.inject({ method, url: `${base}${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
const call = (method: Method, url: string, payload?: object) => callAs()(method, url, payload);

const newMethod = (payload: Partial<ShippingMethodInput> = {}) =>
  adminApi(t, admin).shippingMethod({ name: 'Standard', ...payload });
const newRate = (payload: Partial<ShippingRateInput> & Pick<ShippingRateInput, 'shipping_method_id'>) =>
  adminApi(t, admin).shippingRate({ weight_min_kg: '0', base_rate: '5.00', ...payload });
const fields = (body: { errors: { field: string }[] }) => body.errors.map((e) => e.field);

describe('shipping methods', () => {
  it('creates, lists, reads, changes and deletes a method', async () => {
    const created = await newMethod({ name: '  Express ', description: 'Next day' });
    expect(created).toMatchObject({ name: 'Express', description: 'Next day', is_active: true });
    const url = `/shipping-methods/${created.id}/`;
    expect(json(await call('GET', url))).toEqual(created);
    expect(json(await call('GET', '/shipping-methods/')).map((m: { id: number }) => m.id)).toContain(created.id);
    const patched = json(await call('PATCH', url, { is_active: false, description: '' }));
    expect(patched).toMatchObject({ name: 'Express', description: '', is_active: false });
    expect((await call('DELETE', url)).statusCode).toBe(204);
    expectProblem(await call('GET', url), 404, 'shipping_method_not_found');
    expectProblem(await call('PATCH', url, { name: 'X' }), 404, 'shipping_method_not_found');
    expectProblem(await call('DELETE', url), 404, 'shipping_method_not_found');
  });

  it.each([
    [{}, 'name'],
    [{ name: ' ' }, 'name'],
    [{ name: 1 }, 'name'],
    [{ name: 'A', is_active: 1 }, 'is_active'],
    [{ name: 'A', price: '1' }, 'price'],
  ])('refuses %o with 422 naming %s', async (payload, field) => {
    expect(fields(expectProblem(await call('POST', '/shipping-methods/', payload), 422, 'validation_error'))).toContain(
      field,
    );
  });

  it('deletes the rates of a deleted method', async () => {
    const method = await newMethod();
    const rate = await newRate({ shipping_method_id: method.id });
    await call('DELETE', `/shipping-methods/${method.id}/`);
    expectProblem(await call('GET', `/shipping-rates/${rate.id}/`), 404, 'shipping_rate_not_found');
  });
});

describe("a shipping method's tax class", () => {
  async function newTaxClass(name: string): Promise<number> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/tax/dashboard/api/tax-classes/',
      headers: bearer(admin.access),
      payload: { name },
    });
    expect(res.statusCode, res.body).toBe(201);
    return json(res).id;
  }

  it('is null unless given, and is set, changed and cleared through the admin API', async () => {
    const freight = await newTaxClass('Freight');
    const other = await newTaxClass('Freight (reduced)');
    expect(await newMethod()).toMatchObject({ tax_class_id: null });
    const method = await newMethod({ name: 'Taxed', tax_class_id: freight });
    expect(method).toMatchObject({ tax_class_id: freight });
    const url = `/shipping-methods/${method.id}/`;
    expect(json(await call('GET', url))).toMatchObject({ tax_class_id: freight });
    expect(json(await call('PATCH', url, { tax_class_id: other }))).toMatchObject({ tax_class_id: other });
    expect(json(await call('PATCH', url, { name: 'Renamed' }))).toMatchObject({ name: 'Renamed', tax_class_id: other });
    expect(json(await call('PATCH', url, { tax_class_id: null }))).toMatchObject({ tax_class_id: null });
  });

  it.each([[999999], ['1'], [0]])('refuses the tax class %o with 422 on tax_class_id', async (taxClassId) => {
    const created = await call('POST', '/shipping-methods/', { name: 'X', tax_class_id: taxClassId });
    expect(fields(expectProblem(created, 422, 'validation_error'))).toContain('tax_class_id');
    const method = await newMethod();
    const patched = await call('PATCH', `/shipping-methods/${method.id}/`, { tax_class_id: taxClassId });
    expect(fields(expectProblem(patched, 422, 'validation_error'))).toContain('tax_class_id');
  });

  it("is cleared when its class is deleted, as a product's is", async () => {
    const doomed = await newTaxClass('Doomed freight');
    const method = await newMethod({ tax_class_id: doomed });
    const url = `/tax/dashboard/api/tax-classes/${doomed}/`;
    const deleted = await t.app.inject({ method: 'DELETE', url, headers: bearer(admin.access) });
    expect(deleted.statusCode).toBe(204);
    expect(json(await call('GET', `/shipping-methods/${method.id}/`))).toMatchObject({ tax_class_id: null });
  });
});

describe('shipping rates', () => {
  it('creates a rate with defaults, canonical weights and money strings', async () => {
    const method = await newMethod();
    const rate = await newRate({
      shipping_method_id: method.id,
      weight_min_kg: '0.500',
      weight_max_kg: '10',
      base_rate: '4.9',
    });
    expect(rate).toMatchObject({
      shipping_method_id: method.id,
      country: '',
      state: '',
      city: '',
      weight_min_kg: '0.5',
      weight_max_kg: '10',
      base_rate: '4.90',
      per_kg_rate: '0.00',
    });
    const placed = await newRate({
      shipping_method_id: method.id,
      country: 'us',
      state: ' CA ',
      city: 'Fresno',
      weight_min_kg: '10',
      base_rate: '20',
      per_kg_rate: '1.25',
    });
    expect(placed).toMatchObject({
      country: 'US',
      state: 'CA',
      city: 'Fresno',
      weight_max_kg: null,
      base_rate: '20.00',
      per_kg_rate: '1.25',
    });
    expect(json(await call('GET', `/shipping-rates/${placed.id}/`))).toEqual(placed);
  });

  it.each([
    [{ weight_min_kg: '-1' }, 'weight_min_kg'],
    [{ weight_min_kg: '1.2345' }, 'weight_min_kg'],
    [{ weight_min_kg: 1 }, 'weight_min_kg'],
    [{ weight_max_kg: 'heavy' }, 'weight_max_kg'],
    [{ weight_min_kg: '2', weight_max_kg: '2' }, 'weight_max_kg'],
    [{ weight_min_kg: '2', weight_max_kg: '1.999' }, 'weight_max_kg'],
    [{ base_rate: '1.005' }, 'base_rate'],
    [{ base_rate: '-1.00' }, 'base_rate'],
    [{ base_rate: 5 }, 'base_rate'],
    [{ per_kg_rate: '0.001' }, 'per_kg_rate'],
    [{ country: 'XX' }, 'country'],
    [{ country: 'USA' }, 'country'],
    [{ shipping_method_id: 999999 }, 'shipping_method_id'],
    [{ zone: 'EU' }, 'zone'],
  ])('refuses %o with 422 naming %s', async (change, field) => {
    const method = await newMethod();
    const payload = { shipping_method_id: method.id, weight_min_kg: '0', base_rate: '5.00', ...change };
    expect(fields(expectProblem(await call('POST', '/shipping-rates/', payload), 422, 'validation_error'))).toContain(
      field,
    );
  });

  it('requires the method, the minimum weight and the base rate', async () => {
    const body = expectProblem(await call('POST', '/shipping-rates/', {}), 422, 'validation_error');
    expect(fields(body)).toEqual(expect.arrayContaining(['shipping_method_id', 'weight_min_kg', 'base_rate']));
  });

  it('checks the bracket of a change against the stored ends', async () => {
    const method = await newMethod();
    const rate = await newRate({ shipping_method_id: method.id, weight_min_kg: '1', weight_max_kg: '5' });
    const url = `/shipping-rates/${rate.id}/`;
    expect(fields(expectProblem(await call('PATCH', url, { weight_max_kg: '0.5' }), 422, 'validation_error'))).toEqual([
      'weight_max_kg',
    ]);
    expect(fields(expectProblem(await call('PATCH', url, { weight_min_kg: '5' }), 422, 'validation_error'))).toEqual([
      'weight_max_kg',
    ]);
    expect(json(await call('PATCH', url, { weight_max_kg: null }))).toMatchObject({
      weight_min_kg: '1',
      weight_max_kg: null,
    });
    expect(json(await call('PATCH', url, { weight_min_kg: '50' }))).toMatchObject({
      weight_min_kg: '50',
      weight_max_kg: null,
    });
    expect(json(await call('PATCH', url, { weight_min_kg: '0', weight_max_kg: '0.25' }))).toMatchObject({
      weight_min_kg: '0',
      weight_max_kg: '0.25',
    });
  });

  it('changes and deletes a rate', async () => {
    const method = await newMethod();
    const other = await newMethod({ name: 'Other' });
    const rate = await newRate({ shipping_method_id: method.id, country: 'DE' });
    const url = `/shipping-rates/${rate.id}/`;
    const patched = json(
      await call('PATCH', url, {
        shipping_method_id: other.id,
        country: '',
        city: 'Berlin',
        base_rate: '7',
        per_kg_rate: '0.5',
      }),
    );
    expect(patched).toMatchObject({
      shipping_method_id: other.id,
      country: '',
      city: 'Berlin',
      base_rate: '7.00',
      per_kg_rate: '0.50',
    });
    expect(json(await call('PATCH', url, {}))).toMatchObject({ base_rate: '7.00', city: 'Berlin' });
    expect(
      fields(
        expectProblem(await call('PATCH', url, { base_rate: '7.001', per_kg_rate: '-1' }), 422, 'validation_error'),
      ),
    ).toEqual(['base_rate', 'per_kg_rate']);
    expect(
      fields(expectProblem(await call('PATCH', url, { shipping_method_id: 999999 }), 422, 'validation_error')),
    ).toEqual(['shipping_method_id']);
    expect((await call('DELETE', url)).statusCode).toBe(204);
    expectProblem(await call('GET', url), 404, 'shipping_rate_not_found');
    expectProblem(await call('PATCH', url, { base_rate: '1' }), 404, 'shipping_rate_not_found');
    expectProblem(await call('DELETE', url), 404, 'shipping_rate_not_found');
  });

  it('lists rates, optionally of one method', async () => {
    const method = await newMethod();
    const other = await newMethod();
    const first = await newRate({ shipping_method_id: method.id });
    const second = await newRate({ shipping_method_id: method.id, weight_min_kg: '3' });
    const elsewhere = await newRate({ shipping_method_id: other.id });
    const ids = async (query: string) =>
      json(await call('GET', `/shipping-rates/${query}`)).map((r: { id: number }) => r.id);
    expect(await ids(`?shipping_method_id=${method.id}`)).toEqual([first.id, second.id]);
    expect(await ids('')).toEqual(expect.arrayContaining([first.id, second.id, elsewhere.id]));
    expectProblem(await call('GET', '/shipping-rates/?shipping_method_id=x'), 422, 'validation_error');
  });

  it('takes amounts at the precision of a JPY store', async () => {
    const store = await buildTestApp({ config: { storeCurrency: 'JPY' } });
    try {
      const boss = await signInAdmin(store);
      const method = json(
        await callAs({ token: boss.access, app: store })('POST', '/shipping-methods/', { name: 'Yamato' }),
      );
      const ok = await callAs({ token: boss.access, app: store })('POST', '/shipping-rates/', {
        shipping_method_id: method.id,
        weight_min_kg: '0',
        base_rate: '800',
        per_kg_rate: '120',
      });
      expect(json(ok)).toMatchObject({ base_rate: '800', per_kg_rate: '120' });
      const refused = await callAs({ token: boss.access, app: store })('POST', '/shipping-rates/', {
        shipping_method_id: method.id,
        weight_min_kg: '0',
        base_rate: '800.5',
      });
      expect(fields(expectProblem(refused, 422, 'validation_error'))).toEqual(['base_rate']);
    } finally {
      await store.close();
    }
  });
});

describe('storefront shipping methods', () => {
  const storefront = (query: string) =>
    t.app.inject({ method: 'GET', url: `/shipping/storefront/api/shipping-methods/${query}` });
  const ids = async (query: string) => {
    const res = await storefront(query);
    expect(res.statusCode, res.body).toBe(200);
    return json(res).map((m: { id: number }) => m.id);
  };

  it('lists the active methods with a rate for the country and state, and nothing internal', async () => {
    const anywhere = await newMethod({ name: 'Anywhere', description: 'Worldwide' });
    await newRate({ shipping_method_id: anywhere.id });
    const usOnly = await newMethod({ name: 'US only' });
    await newRate({ shipping_method_id: usOnly.id, country: 'US' });
    const california = await newMethod({ name: 'California' });
    await newRate({ shipping_method_id: california.id, country: 'US', state: 'CA' });
    const berlin = await newMethod({ name: 'Berlin courier' });
    await newRate({ shipping_method_id: berlin.id, country: 'DE', city: 'Berlin' });
    const inactive = await newMethod({ name: 'Retired', is_active: false });
    await newRate({ shipping_method_id: inactive.id });
    const rateless = await newMethod({ name: 'No rates' });

    const inCalifornia = await ids('?country=us&state=ca');
    expect(inCalifornia).toEqual(expect.arrayContaining([anywhere.id, usOnly.id, california.id]));
    expect(inCalifornia).not.toContain(berlin.id);

    const inNewYork = await ids('?country=US&state=NY');
    expect(inNewYork).toEqual(expect.arrayContaining([anywhere.id, usOnly.id]));
    expect(inNewYork).not.toContain(california.id);

    expect(await ids('?country=US')).toEqual(expect.arrayContaining([anywhere.id, usOnly.id, california.id]));

    const inGermany = await ids('?country=DE');
    expect(inGermany).toEqual(expect.arrayContaining([anywhere.id, berlin.id]));
    expect(inGermany).not.toContain(usOnly.id);

    for (const query of ['?country=US', '?country=DE&state=BE', '?country=FR']) {
      const listed = await ids(query);
      expect(listed).not.toContain(inactive.id);
      expect(listed).not.toContain(rateless.id);
    }
    const shown = json(await storefront('?country=FR')).find((m: { id: number }) => m.id === anywhere.id);
    expect(shown).toEqual({ id: anywhere.id, name: 'Anywhere', description: 'Worldwide' });
  });

  it('needs a valid country', async () => {
    expect(fields(expectProblem(await storefront(''), 422, 'validation_error'))).toEqual(['querystring.country']);
    expect(fields(expectProblem(await storefront('?country=XX'), 422, 'validation_error'))).toEqual([
      'querystring.country',
    ]);
    expectProblem(await storefront('?country=USA'), 422, 'validation_error');
  });
});

describe('shipping admin access', () => {
  it.each([
    ['GET', '/shipping-methods/'],
    ['POST', '/shipping-methods/'],
    ['GET', '/shipping-methods/1/'],
    ['PATCH', '/shipping-methods/1/'],
    ['DELETE', '/shipping-methods/1/'],
    ['GET', '/shipping-rates/'],
    ['POST', '/shipping-rates/'],
    ['GET', '/shipping-rates/1/'],
    ['PATCH', '/shipping-rates/1/'],
    ['DELETE', '/shipping-rates/1/'],
  ] as const)('%s %s answers 401 without a token and 403 to a customer', async (method, url) => {
    expectProblem(await t.app.inject({ method, url: `${base}${url}`, payload: {} }), 401, 'unauthorized');
    expectProblem(await callAs({ token: customer.access })(method, url, {}), 403, 'forbidden');
  });

  it('validates path ids', async () => {
    expectProblem(await call('GET', '/shipping-methods/abc/'), 422, 'validation_error');
    expectProblem(await call('DELETE', '/shipping-rates/0/'), 422, 'validation_error');
  });
});

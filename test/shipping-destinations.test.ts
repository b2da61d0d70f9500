// GET /shipping/storefront/api/destinations/: the countries the store ships to (those of its active shipping methods'
// rates), for a shop's country list; kept in memory and cleared by admin writes and by changes made with SQL.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippingDestinations } from '../src/shipping/shipping.values.js';
import { type AdminApi, adminApi } from './fixtures.js';
import { buildTestApp, json, signInAdmin, type TestApp } from './helpers.js';

let t: TestApp;
let api: AdminApi;
beforeAll(async () => {
  t = await buildTestApp();
  api = adminApi(t, await signInAdmin(t));
});
afterAll(() => t.close());

const destinations = async () =>
  json(await t.app.inject({ method: 'GET', url: '/shipping/storefront/api/destinations/' })) as {
    all_countries: boolean;
    countries: string[];
  };

async function eventually(check: () => Promise<void>, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

describe('shippingDestinations', () => {
  it('lists named countries once, upper-case and sorted, and ships everywhere when a rate names none', () => {
    expect(shippingDestinations(['us', 'DE', 'US', 'ca'])).toEqual({
      all_countries: false,
      countries: ['CA', 'DE', 'US'],
    });
    expect(shippingDestinations(['', 'FR'])).toEqual({ all_countries: true, countries: ['FR'] });
    expect(shippingDestinations([])).toEqual({ all_countries: false, countries: [] });
  });
});

describe('GET /shipping/storefront/api/destinations/', () => {
  it('answers the countries of active methods’ rates, following admin writes and SQL', async () => {
    expect(await destinations()).toEqual({ all_countries: false, countries: [] });

    const method = await api.shippingMethod({ name: 'Standard' });
    await api.shippingRate({ shipping_method_id: method.id, country: 'US', weight_min_kg: '0', base_rate: '5.00' });
    const ca = await api.shippingRate({
      shipping_method_id: method.id,
      country: 'CA',
      state: 'ON',
      weight_min_kg: '0',
      base_rate: '9.00',
    });
    expect(await destinations()).toEqual({ all_countries: false, countries: ['CA', 'US'] });

    // A method switched off ships nowhere.
    const inactive = await api.shippingMethod({ name: 'Paused', is_active: false });
    await api.shippingRate({ shipping_method_id: inactive.id, country: 'JP', weight_min_kg: '0', base_rate: '30.00' });
    expect((await destinations()).countries).toEqual(['CA', 'US']);

    // Changed by hand, outside the API: the database announces it.
    await t.database.db.execute(sql.raw(`update shipping_rates set country = 'DE' where id = ${ca.id}`));
    await eventually(async () => expect((await destinations()).countries).toEqual(['DE', 'US']));

    await api.shippingRate({ shipping_method_id: method.id, country: '', weight_min_kg: '0', base_rate: '20.00' });
    expect(await destinations()).toEqual({ all_countries: true, countries: ['DE', 'US'] });
  });
});

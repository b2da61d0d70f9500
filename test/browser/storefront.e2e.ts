// The storefront as a shopper uses it, in a real Chromium: buying with a promo code and paying with the sandbox, the
// guest cart merged at sign-in, errors said in words beside what they concern, one order for a double click, 375 px
// without sideways scrolling, and a refund made by the admin shown on the customer's order page.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type BrowserSession, launchBrowser, type Shop, scrollsSideways, startShop } from './harness.js';

const NARROW = { width: 375, height: 740 };
/** Waits up to 10 s for a value (the page asks the service, debounced, before it shows figures). */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000 });

describe('the storefront in a browser', () => {
  let shop: Shop;
  let browser: BrowserSession;
  let emails = 0;
  const newEmail = (who: string) => `${who}-${++emails}-${Date.now()}@example.com`;

  beforeAll(async () => {
    shop = await startShop();
    browser = await launchBrowser(shop.baseUrl);
  });
  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
  });

  /** Calls the service's API directly (JSON in and out), as a test's own setup or check. */
  async function api<T>(path: string, init: { method?: string; body?: unknown; token?: string } = {}): Promise<T> {
    const res = await fetch(`${shop.baseUrl}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as T;
  }
  /** A new visitor's page; an action that can't happen fails in 15 s rather than at the test's timeout. */
  async function visit(options?: { viewport: { width: number; height: number } }) {
    const page = await browser.newPage(options);
    page.setDefaultTimeout(15_000);
    return page;
  }
  const signIn = (who: { email: string; password: string }) =>
    api<{ access: string }>('/user/storefront/api/login/', { body: who }).then((r) => r.access);

  /** From the product list, opens a product, picks a variant (when it has several) and adds `quantity` of it. */
  async function addToCart(page: Page, item: { product: string; variant?: string; quantity?: number }) {
    await page.goto('/');
    await page.getByRole('main').getByRole('link', { name: item.product }).click();
    await page.getByRole('heading', { level: 1, name: item.product }).waitFor();
    if (item.variant) await page.getByRole('radio', { name: item.variant }).check();
    if (item.quantity) await page.getByLabel('Quantity').fill(String(item.quantity));
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.getByRole('status').filter({ hasText: 'to your cart' }).waitFor();
  }

  /** Fills the checkout's email and a Californian address, and waits for the shipping method and the total. */
  async function fillCheckout(page: Page, email: string) {
    await page.getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Street address').fill('1 Main St');
    await page.getByLabel('City').fill('Los Angeles');
    await page.getByLabel('Postal code').fill('90001');
    await page.getByLabel('Country').selectOption('US');
    await page.getByLabel('State', { exact: true }).selectOption('CA');
    await poll(() => page.getByRole('radio', { name: /Standard/ }).isChecked()).toBe(true);
    await poll(() => page.getByText('Shipping (Standard)').count()).toBe(1);
  }

  it('lets a guest buy two items with SAVE10, see the promotion named, pay with the sandbox, see "Paid"', async () => {
    const page = await visit();
    await addToCart(page, { product: 'T-Shirt', variant: 'Small', quantity: 2 });
    await addToCart(page, { product: 'Mug' });
    await poll(() => page.getByRole('link', { name: 'Cart (3)' }).count()).toBe(1);

    await page.goto('/cart');
    await page.getByRole('link', { name: 'Checkout' }).click();
    await fillCheckout(page, newEmail('guest'));
    await page.getByRole('textbox', { name: 'Promo code' }).fill('SAVE10');
    await page.getByRole('button', { name: 'Apply' }).click();
    const summary = page.getByRole('region', { name: 'Order summary' });
    await poll(() => summary.getByText('Save 10 %').first().count()).toBe(1);
    // The demo's figures for 2 small T-shirts and a mug to California with SAVE10 (docs/api.md).
    await poll(() => summary.getByText('67.52 USD').count()).toBe(1);
    expect(await summary.getByText('−6.45 USD').count()).toBe(1);

    await page.getByRole('button', { name: 'Place order' }).click();
    await page.waitForURL(/\/orders\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { level: 1, name: 'Thank you for your order' }).waitFor();
    // The order's page opened again later, in another tab of this browser (which keeps the guest's order token), shows
    // the order without thanking again.
    const later = await page.context().newPage();
    await later.goto(page.url());
    await later.getByRole('heading', { level: 1, name: 'Your order' }).waitFor();
    await poll(() => later.getByText('67.52 USD').count()).toBeGreaterThan(0);
    await later.close();
    await page.getByRole('radio', { name: /Sandbox/ }).check();
    await page.getByRole('button', { name: 'Pay' }).click();
    // The sandbox's own page, served by the service.
    await page.getByRole('heading', { name: 'Sandbox payment' }).waitFor();
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/\/orders\/[0-9a-f-]{36}\?/);
    await poll(() => page.getByText('Paid', { exact: true }).count()).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: 'Cart (0)' }).count()).toBe(1);
    expect(browser.errors).toEqual([]);
  });

  it("merges a guest's cart into the customer's cart at sign-in, and at sign-up", async () => {
    const customer = { email: newEmail('merge'), password: 'correct horse battery' };
    await api('/user/storefront/api/signup/', { body: customer });
    const access = await signIn(customer);
    const products = await api<{ items: { variants: { id: number; alias: string }[] }[] }>(
      '/product/storefront/api/products/?limit=100',
    );
    const medium = products.items.flatMap((p) => p.variants).find((v) => v.alias === 'demo-tshirt-m');
    await api('/cart/storefront/api/carts/add/', {
      body: { product_variant_id: medium?.id, quantity: 1 },
      token: access,
    });

    const page = await visit();
    await addToCart(page, { product: 'Mug', quantity: 2 });
    await page.reload();
    // Kept across a reload.
    await poll(() => page.getByRole('link', { name: 'Cart (2)' }).count()).toBe(1);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Email').fill(customer.email);
    await page.getByLabel('Password').fill(customer.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await poll(() => page.getByRole('link', { name: 'Cart (3)' }).count()).toBe(1);
    await page.goto('/cart');
    await page.getByRole('row', { name: /Mug/ }).waitFor();
    expect(await page.getByRole('row', { name: /Medium/ }).count()).toBe(1);

    // The customer's stored address is offered at checkout, and the shipping and total are worked out for it.
    await api('/user/storefront/api/addresses/', {
      body: { first_name: 'Ada', last_name: 'L', street_address: '1 Main St', city: 'Berlin', country: 'DE' },
      token: access,
    });
    await page.getByRole('link', { name: 'Checkout' }).click();
    await poll(() => page.getByLabel('Deliver to').inputValue()).not.toBe('new');
    expect(await page.getByLabel('Email').count()).toBe(0);
    await poll(() => page.getByRole('radio', { name: /Standard/ }).isChecked()).toBe(true);
    await poll(() => page.getByText('Shipping (Standard)').count()).toBe(1);

    // Signing up brings the guest cart along too.
    const other = await visit();
    await addToCart(other, { product: 'Espresso', variant: '250 g' });
    await other.goto('/sign-up');
    await other.getByLabel('Email').fill(newEmail('signup'));
    await other.getByLabel('Password').fill('correct horse battery');
    await other.getByRole('button', { name: 'Sign up' }).click();
    await other.getByRole('button', { name: 'Sign out' }).waitFor();
    await other.goto('/cart');
    await other.getByRole('row', { name: /250 g/ }).waitFor();
    expect(await other.getByRole('link', { name: 'Cart (1)' }).count()).toBe(1);
    expect(browser.errors).toEqual([]);
  });

  it('says in words, beside the item, that it is out of stock or that there is not enough of it', async () => {
    const page = await visit();
    await page.goto('/');
    await page.getByRole('link', { name: 'T-Shirt' }).click();
    await page.getByRole('radio', { name: /Large/ }).check();
    await poll(() => page.locator('.price').getByText('Out of stock').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Add to cart' }).isDisabled()).toBe(true);

    await addToCart(page, { product: 'T-Shirt', variant: 'Small' });
    await page.goto('/cart');
    const row = page.getByRole('row', { name: /Small/ });
    await row.getByLabel(/Quantity of/).fill('51');
    await row.getByRole('button', { name: /Update/ }).click();
    await poll(() => row.getByRole('alert').textContent()).toMatch(/^Not enough stock: only \d+ available\.$/);

    // At most 5 of the 1 kg beans per order: the product page says so, and the cart refuses a sixth in words.
    await page.goto('/');
    await page.getByRole('link', { name: 'Espresso' }).click();
    await page.getByRole('radio', { name: /1 kg/ }).check();
    await poll(() => page.getByText('At most 5 per order.').count()).toBe(1);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.getByRole('status').filter({ hasText: 'to your cart' }).waitFor();
    await page.goto('/cart');
    const beans = page.getByRole('row', { name: /1 kg/ });
    await beans.getByLabel(/Quantity of/).fill('6');
    await beans.getByRole('button', { name: /Update/ }).click();
    await poll(() => beans.getByRole('alert').textContent()).toBe('At most 5 per order.');
    expect(browser.errors).toEqual([]);
  });

  it('places one order when "Place order" is double-clicked', async () => {
    const page = await visit();
    const email = newEmail('double');
    await addToCart(page, { product: 'Mug' });
    await page.goto('/checkout');
    await fillCheckout(page, email);
    await page.getByRole('button', { name: 'Place order' }).dblclick();
    await page.waitForURL(/\/orders\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { level: 1, name: 'Thank you for your order' }).waitFor();
    const admin = await signIn(ADMIN);
    const orders = await api<{ items: unknown[] }>(`/order/dashboard/api/orders/?email=${encodeURIComponent(email)}`, {
      token: admin,
    });
    expect(orders.items).toHaveLength(1);
    expect(browser.errors).toEqual([]);
  });

  it('shows the product list, a product, the cart and the checkout at 375 px without sideways scrolling', async () => {
    const page = await visit({ viewport: NARROW });
    await page.goto('/');
    await page.getByRole('link', { name: 'T-Shirt' }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await addToCart(page, { product: 'T-Shirt', variant: 'Medium' });
    expect(await scrollsSideways(page)).toBe(false);
    await page.goto('/cart');
    await page.getByRole('row', { name: /Medium/ }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await page.goto('/checkout');
    await fillCheckout(page, newEmail('narrow'));
    await page.getByRole('textbox', { name: 'Promo code' }).fill('SAVE10');
    await page.getByRole('button', { name: 'Apply' }).click();
    await poll(() => page.getByText('Save 10 %').count()).toBeGreaterThan(0);
    expect(await scrollsSideways(page)).toBe(false);
    expect(browser.errors).toEqual([]);
  });

  it("shows a partial refund made by the admin on the customer's order page", async () => {
    const customer = { email: newEmail('refund'), password: 'correct horse battery' };
    const page = await visit();
    await page.goto('/sign-up');
    await page.getByLabel('Email').fill(customer.email);
    await page.getByLabel('Password').fill(customer.password);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await addToCart(page, { product: 'T-Shirt', variant: 'Small' });
    await page.goto('/checkout');
    await page.getByLabel('Country').selectOption('US');
    await page.getByLabel('State', { exact: true }).selectOption('CA');
    await poll(() => page.getByRole('radio', { name: /Standard/ }).isChecked()).toBe(true);
    await poll(() => page.getByText('Shipping (Standard)').count()).toBe(1);
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.waitForURL(/\/orders\/[0-9a-f-]{36}$/);
    const alias = page.url().split('/').pop() ?? '';
    await page.getByRole('radio', { name: /Sandbox/ }).check();
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByRole('heading', { name: 'Sandbox payment' }).waitFor();
    await page.getByRole('button', { name: 'Pay' }).click();
    await poll(() => page.getByText('Paid', { exact: true }).count()).toBeGreaterThan(0);

    const admin = await signIn(ADMIN);
    const payments = await api<{ id: number; status: string }[]>(`/payment/dashboard/api/orders/${alias}/payments/`, {
      token: admin,
    });
    const paid = payments.find((p) => p.status === 'succeeded');
    await api(`/payment/dashboard/api/payments/${paid?.id}/refund/`, { body: { amount: '5.00' }, token: admin });

    await page.goto('/account/orders');
    await page.getByRole('heading', { level: 1, name: 'Your orders' }).waitFor();
    await page.locator(`a[href="/account/orders/${alias}"]`).click();
    await page.getByRole('heading', { level: 1, name: 'Your order' }).waitFor();
    const refunds = page.getByRole('region', { name: 'Payments and refunds' });
    await poll(() => refunds.getByText('Refunded 5.00 USD', { exact: true }).count()).toBe(1);
    expect(await refunds.getByText('Partly refunded').count()).toBe(1);
    expect(browser.errors).toEqual([]);
  });
  it('says by what it concerns that a code is unknown or an item short, and offers only countries served', async () => {
    const page = await visit();
    await addToCart(page, { product: 'T-Shirt', variant: 'Medium', quantity: 2 });
    await page.goto('/checkout');
    await fillCheckout(page, newEmail('errors'));

    const code = page.getByRole('textbox', { name: 'Promo code' });
    await code.fill('NOPE');
    await page.getByRole('button', { name: 'Apply' }).click();
    await poll(() => code.getAttribute('aria-invalid')).toBe('true');
    const codeError = page.locator(`#${await code.getAttribute('aria-describedby')}`);
    expect(await codeError.textContent()).toMatch(/no promo code NOPE/i);

    // A country the store does not ship to is not offered (GET /shipping/storefront/api/destinations/).
    const country = page.getByLabel('Country');
    expect(await country.locator('option[value="JP"]').count()).toBe(0);
    expect(await country.locator('option[value="US"]').count()).toBe(1);
    await country.selectOption('US');
    await poll(() => page.getByRole('radio', { name: /Standard/ }).isChecked()).toBe(true);

    // Someone else buys all but one of the medium T-shirts left while this cart holds two.
    const products = await api<{ items: { variants: { alias: string; quantity_available: number | null }[] }[] }>(
      '/product/storefront/api/products/?limit=100',
    );
    const left = products.items.flatMap((p) => p.variants).find((v) => v.alias === 'demo-tshirt-m')?.quantity_available;
    await api('/order/storefront/api/create/', {
      body: {
        variants: [{ alias: 'demo-tshirt-m', quantity: (left ?? 0) - 1 }],
        shipping_address: { country: 'US', state: 'CA', email: newEmail('rival') },
      },
    });
    await poll(() => page.getByText('Shipping (Standard)').count()).toBe(1);
    await page.getByRole('button', { name: 'Place order' }).click();
    const line = page.getByRole('region', { name: 'Order summary' }).getByRole('row', { name: /Medium/ });
    await poll(() => line.getByRole('alert').textContent()).toBe('only 1 available');
    expect(page.url()).toMatch(/\/checkout$/);
    expect(browser.errors).toEqual([]);
  });

  it('asks the shopper to confirm when the total changed after it was shown, then places the order', async () => {
    const page = await visit();
    await addToCart(page, { product: 'Mug' });
    await page.goto('/checkout');
    await fillCheckout(page, newEmail('changed'));
    const summary = page.getByRole('region', { name: 'Order summary' });
    await poll(() => summary.getByText('14.50 USD').count()).toBeGreaterThan(0);

    const admin = await signIn(ADMIN);
    const products = await api<{ items: { variants: { id: number; alias: string }[] }[] }>(
      '/product/dashboard/api/products/?limit=100',
      { token: admin },
    );
    const mug = products.items.flatMap((p) => p.variants).find((v) => v.alias === 'demo-mug');
    const setPrice = (price: string) =>
      api(`/product/dashboard/api/variants/${mug?.id}/`, { method: 'PATCH', body: { price }, token: admin });
    await setPrice('15.50');
    try {
      await page.getByRole('button', { name: 'Place order' }).click();
      await poll(() => page.getByRole('alert').filter({ hasText: 'The total changed' }).count()).toBe(1);
      expect(page.url()).toMatch(/\/checkout$/);
      await poll(() => summary.getByText('15.50 USD').count()).toBeGreaterThan(0);
      await page.getByRole('button', { name: 'Place order' }).click();
      await page.waitForURL(/\/orders\/[0-9a-f-]{36}$/);
    } finally {
      await setPrice('14.50');
    }
    expect(browser.errors).toEqual([]);
  });
});

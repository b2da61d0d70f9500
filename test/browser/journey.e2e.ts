// Issue #17's "done means", through the pages only: a shopper signs up, buys two items with a promo code and pays
// with the sandbox; the store owner opens the dashboard, finds the order and refunds part of it; the shopper's order
// page shows the refund. No API call is made by the test itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type BrowserSession, launchBrowser, type Shop, startShop } from './harness.js';

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000 });

describe('a purchase and a refund, from the storefront to the dashboard and back', () => {
  let shop: Shop;
  let browser: BrowserSession;
  beforeAll(async () => {
    shop = await startShop();
    browser = await launchBrowser(shop.baseUrl);
  });
  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
  });

  it('lets a customer buy and pay, the admin refund part of the order, and the customer see the refund', async () => {
    const shopper = await browser.newPage({ viewport: { width: 375, height: 740 } });
    shopper.setDefaultTimeout(15_000);
    const email = `journey-${Date.now()}@example.com`;
    await shopper.goto('/');
    await shopper.getByRole('link', { name: 'Sign up' }).click();
    await shopper.getByLabel('Email').fill(email);
    await shopper.getByLabel('Password').fill('correct horse battery');
    await shopper.getByRole('button', { name: 'Sign up' }).click();
    await shopper.getByRole('button', { name: 'Sign out' }).waitFor();

    for (const item of [{ product: 'T-Shirt', variant: 'Small' }, { product: 'Mug' }]) {
      await shopper.goto('/');
      await shopper.getByRole('main').getByRole('link', { name: item.product }).click();
      if (item.variant) await shopper.getByRole('radio', { name: item.variant }).check();
      await shopper.getByRole('button', { name: 'Add to cart' }).click();
      await shopper.getByRole('status').filter({ hasText: 'to your cart' }).waitFor();
    }
    await shopper.getByRole('link', { name: 'Cart (2)' }).click();
    await shopper.getByRole('link', { name: 'Checkout' }).click();
    await shopper.getByLabel('First name').fill('Ada');
    await shopper.getByLabel('Last name').fill('Lovelace');
    await shopper.getByLabel('Street address').fill('1 Main St');
    await shopper.getByLabel('City').fill('Los Angeles');
    await shopper.getByLabel('Postal code').fill('90001');
    await shopper.getByLabel('Country').selectOption('US');
    await shopper.getByLabel('State', { exact: true }).selectOption('CA');
    await shopper.getByRole('textbox', { name: 'Promo code' }).fill('SAVE10');
    await shopper.getByRole('button', { name: 'Apply' }).click();
    const summary = shopper.getByRole('region', { name: 'Order summary' });
    await poll(() => summary.getByText('Save 10 %').first().count()).toBe(1);
    // Every page names a line "Product — Variant", as the API does.
    const shirt = /Organic Cotton T-Shirt - Small/;
    await poll(() => summary.getByRole('row', { name: shirt }).count()).toBe(1);
    await shopper.getByRole('button', { name: 'Place order' }).click();
    await shopper.waitForURL(/\/orders\/[0-9a-f-]{36}$/);
    const alias = new URL(shopper.url()).pathname.split('/').pop() ?? '';
    await poll(() => shopper.getByRole('row', { name: shirt }).textContent()).toMatch(/SKU TSHIRT-S/);
    await poll(() => shopper.getByRole('row', { name: /Ceramic Coffee Mug - White/ }).count()).toBe(1);
    await shopper.getByRole('radio', { name: /Sandbox/ }).check();
    await shopper.getByRole('button', { name: 'Pay' }).click();
    await shopper.getByRole('heading', { name: 'Sandbox payment' }).waitFor();
    await shopper.getByRole('button', { name: 'Pay' }).click();
    await poll(() => shopper.getByText('Paid', { exact: true }).count()).toBeGreaterThan(0);

    const owner = await browser.newPage();
    owner.setDefaultTimeout(15_000);
    await owner.goto('/admin/');
    await owner.getByLabel('Email').fill(ADMIN.email);
    await owner.getByLabel('Password').fill(ADMIN.password);
    await owner.getByRole('button', { name: 'Sign in' }).click();
    await owner.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Orders' }).click();
    await owner.getByLabel('Customer email or order alias').fill(email);
    await owner.getByRole('button', { name: 'Search' }).click();
    await owner.locator(`a[href="/admin/orders/${alias}"]`).click();
    await poll(() => owner.getByRole('heading', { level: 1 }).textContent()).toBe(`Order ${alias}`);
    await poll(() => owner.getByRole('row', { name: shirt }).textContent()).toMatch(/SKU TSHIRT-S/);
    await owner.getByRole('button', { name: /^Refund payment \d+$/ }).click();
    await owner.getByLabel('Amount to refund').fill('5.00');
    await owner.getByRole('button', { name: 'Continue' }).click();
    await owner.getByRole('button', { name: 'Yes, refund 5.00 USD' }).click();
    await poll(async () => (await owner.getByRole('status').allTextContents()).join(' ')).toMatch(/Refunded 5\.00 USD/);

    await shopper.goto('/account/orders');
    await shopper.locator(`a[href="/account/orders/${alias}"]`).click();
    const refunds = shopper.getByRole('region', { name: 'Payments and refunds' });
    await poll(() => refunds.textContent()).toMatch(/Refunded 5\.00 USD/);
    expect(await shopper.getByRole('row', { name: shirt }).count()).toBe(1);
    expect(browser.errors).toEqual([]);
  });
});

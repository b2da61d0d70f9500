import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type BrowserSession, launchBrowser, type Shop, scrollsSideways, startShop } from './harness.js';

// The dashboard's catalog, tax, shipping and promotions pages (issue #17 item 3), driven as a store owner would.
describe('the dashboard: products, tax, shipping and promotions', () => {
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

  /** A new visitor who signs in as the demo admin at `path`, and sees the page there. */
  async function adminAt(path: string, viewport?: { width: number; height: number }): Promise<Page> {
    const page = await browser.newPage(viewport ? { viewport } : {});
    await page.goto(path);
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Sign out' }).count()).toBe(1);
    return page;
  }

  const statusText = (page: Page) => page.getByRole('status').allTextContents();

  it('creates a product with a variant and stock, which the storefront then lists', async () => {
    const page = await adminAt('/admin/products');
    await expect.poll(() => page.getByRole('heading', { name: 'Products', level: 1 }).count()).toBe(1);
    await page.getByLabel('Product name').fill('Travel mug');
    await page.getByLabel('Variant name').fill('Steel');
    await page.getByLabel(/^Price/).fill('19.50');
    await page.getByLabel('SKU').fill('MUG-TRAVEL');
    await page.getByLabel('Stock on hand').fill('12');
    await page.getByRole('button', { name: 'Create product' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Travel mug', level: 1 }).count()).toBe(1);
    await expect.poll(() => statusText(page)).toContain('Product Travel mug created.');
    const row = page.getByRole('row', { name: /Steel/ });
    expect(await row.textContent()).toMatch(/19\.50 USD.*12/);

    const shopper = await browser.newPage();
    await shopper.goto('/');
    await expect.poll(() => shopper.getByRole('link', { name: 'Travel mug' }).count()).toBe(1);
    expect(browser.errors).toEqual([]);
  });

  it('creates a tax class with a rate, a default rate, and a shipping method with a rate', async () => {
    const page = await adminAt('/admin/tax');
    await expect.poll(() => page.getByRole('heading', { name: 'Tax', level: 1 }).count()).toBe(1);
    await page.getByLabel('New tax class name').fill('Books');
    await page.getByRole('button', { name: 'Create tax class' }).click();
    await expect.poll(() => statusText(page)).toContain('Tax class Books created.');

    const newRate = page.getByRole('form', { name: 'New tax rate' });
    await newRate.getByLabel('Applies to').selectOption({ label: 'Class Books' });
    await newRate.getByLabel('Country').fill('fr');
    await newRate.getByLabel('Rate (%)').fill('5.50');
    await newRate.getByRole('button', { name: 'Create tax rate' }).click();
    await expect.poll(() => statusText(page)).toContain('Tax rate 5.5 % for FR created.');
    await expect.poll(() => page.getByRole('row', { name: /Books\s*FR\s*5\.5 %/ }).count()).toBe(1);

    // A rate over 100 % is refused by the API, and its words appear beside the rate.
    await newRate.getByLabel('Applies to').selectOption({ label: 'Default rate (classes without a rate here)' });
    await newRate.getByLabel('Country').fill('FR');
    await newRate.getByLabel('Rate (%)').fill('120');
    await newRate.getByRole('button', { name: 'Create tax rate' }).click();
    const rateField = newRate.locator('.field', { has: page.getByLabel('Rate (%)') });
    await expect.poll(() => rateField.locator('.field-error').textContent()).toMatch(/100/);
    await newRate.getByLabel('Rate (%)').fill('20');
    await newRate.getByRole('button', { name: 'Create tax rate' }).click();
    await expect.poll(() => page.getByRole('row', { name: /Default\s*FR\s*20 %/ }).count()).toBe(1);

    const shipping = await adminAt('/admin/shipping');
    await expect.poll(() => shipping.getByRole('heading', { name: 'Shipping', level: 1 }).count()).toBe(1);
    const newMethod = shipping.getByRole('form', { name: 'New shipping method' });
    await newMethod.getByLabel('Method name').fill('Express');
    await newMethod.getByLabel('Description').fill('1 to 2 days');
    await newMethod.getByLabel('Tax class').selectOption({ label: 'Standard' });
    await newMethod.getByRole('button', { name: 'Create shipping method' }).click();
    await expect.poll(() => statusText(shipping)).toContain('Shipping method Express created.');
    await expect.poll(() => shipping.getByRole('row', { name: /Express\s*1 to 2 days\s*Standard/ }).count()).toBe(1);

    const newShippingRate = shipping.getByRole('form', { name: 'New shipping rate' });
    await newShippingRate.getByLabel('Shipping method').selectOption({ label: 'Express' });
    await newShippingRate.getByLabel('Country').fill('FR');
    await newShippingRate.getByLabel('Up to weight (kg)').fill('5');
    await newShippingRate.getByLabel(/^Base rate/).fill('12.90');
    await newShippingRate.getByLabel(/^Per kg/).fill('1.005');
    await newShippingRate.getByRole('button', { name: 'Create shipping rate' }).click();
    const perKg = newShippingRate.locator('.field', { has: shipping.getByLabel(/^Per kg/) });
    await expect.poll(() => perKg.locator('.field-error').textContent()).toMatch(/decimal/);
    await newShippingRate.getByLabel(/^Per kg/).fill('1.50');
    await newShippingRate.getByRole('button', { name: 'Create shipping rate' }).click();
    await expect
      .poll(() => shipping.getByRole('row', { name: /Express\s*FR\s*0 to 5\s*12\.90 USD\s*1\.50 USD/ }).count())
      .toBe(1);
    expect(browser.errors).toEqual([]);
  });

  it('fits every catalog page in 375 px without scrolling sideways, one h1 each, no console errors', async () => {
    const page = await adminAt('/admin/products', { width: 375, height: 740 });
    const pages = ['/admin/products', '/admin/products/1', '/admin/tax', '/admin/shipping'];
    for (const path of pages) {
      await page.goto(path);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).count(), { message: path }).toBe(1);
      await expect.poll(() => page.getByText('Loading…').count(), { message: path }).toBe(0);
      expect(await scrollsSideways(page), path).toBe(false);
    }
    // The editors open below the tables; they fit too.
    await page.goto('/admin/products/1');
    await page
      .getByRole('button', { name: /^Edit / })
      .first()
      .click();
    expect(await scrollsSideways(page)).toBe(false);
    expect(browser.errors).toEqual([]);
  });
});

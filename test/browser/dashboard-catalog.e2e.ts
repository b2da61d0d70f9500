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
});

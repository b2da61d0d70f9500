// The dashboard's orders and webhooks, driven in Chromium: an admin finds an order a guest placed and paid through the
// API, refunds part of it, moves orders through their statuses, cancels a paid one with its refund, and watches a
// webhook endpoint's deliveries.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type BrowserSession, launchBrowser, type Shop, startShop } from './harness.js';

/** Signs the demo admin in on a new page (a new visitor) and opens `path` of the dashboard. */
async function signedIn(browser: BrowserSession, path: string, viewport?: { width: number; height: number }) {
  const page = await browser.newPage(viewport ? { viewport } : {});
  await page.goto(path);
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => page.getByRole('button', { name: 'Sign out' }).count()).toBe(1);
  return page;
}

const headingText = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();

describe('the dashboard: orders and webhooks', () => {
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

  it('has a header with every section, the admin and "Sign out", at /admin without its slash too', async () => {
    const page = await signedIn(browser, '/admin');
    await expect.poll(() => headingText(page)).toBe('Dashboard');
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    for (const name of ['Orders', 'Products', 'Tax', 'Shipping', 'Promotions', 'Webhooks']) {
      expect(await nav.getByRole('link', { name, exact: true }).count()).toBe(1);
    }
    expect(await page.getByText(ADMIN.email).count()).toBe(1);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => headingText(page)).toBe('Sign in to the dashboard');
    expect(browser.errors).toEqual([]);
  });
});

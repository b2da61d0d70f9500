import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type BrowserSession, launchBrowser, type Shop, scrollsSideways, startShop } from './harness.js';

describe('the web apps in a browser', () => {
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

  it("shows the demo store's products at /, with headings, at 375 px without scrolling sideways", async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 740 } });
    await page.goto('/');
    await expect.poll(() => page.getByRole('heading', { name: 'Products', level: 1 }).count()).toBe(1);
    await expect.poll(() => page.getByRole('link', { name: 'T-shirt' }).count()).toBeGreaterThan(0);
    expect(await scrollsSideways(page)).toBe(false);
    expect(browser.errors).toEqual([]);
  });

  it('signs the demo admin in to the dashboard', async () => {
    const page = await browser.newPage();
    await page.goto('/admin/');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Sign out' }).count()).toBe(1);
    expect(browser.errors).toEqual([]);
  });

  it('says in words when the sign-in is refused', async () => {
    const page = await browser.newPage();
    await page.goto('/admin/');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/credentials|password/i);
  });
});

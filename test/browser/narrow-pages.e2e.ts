import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  dashboardPages,
  guestOrderPage,
  nothingCutOff,
  payWithSandbox,
  placeDemoOrder,
  shopAndBrowser,
  signedIn,
} from './harness.js';

// Every page of the shop and the dashboard at a 390 px wide phone (issue #29 item 5): no sideways scroll
// (document.documentElement.scrollWidth <= 390), nothing reaching past the right edge, and no table cell whose content
// is cut off (wider than the cell). Tables of records reflow into one block per row there.
describe('every page at 390 px', () => {
  const running = shopAndBrowser();
  const phone = { width: 390, height: 844 };
  const poll = expect.poll;

  /** What is cut off on the page: its scroll width, and the table cells whose content is wider than they are. */
  async function fitsThePhone(page: Page, what: string): Promise<void> {
    await poll(() => page.locator('main h1').count(), { message: what }).toBeGreaterThan(0);
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate('document.documentElement.scrollWidth'), what).toBeLessThanOrEqual(phone.width);
    const clipped = await page.evaluate(
      `[...document.querySelectorAll('main td, main th')]
        .filter((c) => c.closest('thead, .visually-hidden') === null && c.checkVisibility())
        .filter((c) => c.scrollWidth > c.clientWidth + 1)
        .map((c) => c.tagName + ' ' + (c.textContent ?? '').slice(0, 40))`,
    );
    expect(clipped, what).toEqual([]);
    expect(await nothingCutOff(page, phone.width), what).toBe(true);
  }

  it('fits the shop: products, a category, a collection, a product, cart, checkout, an order', async () => {
    const page = await running.browser.newPage({ viewport: phone });
    for (const path of ['/', '/c/coffee', '/c/mugs', '/collections/gift-ideas', '/p/organic-cotton-t-shirt']) {
      await page.goto(path);
      await fitsThePhone(page, path);
    }
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await poll(() => page.getByRole('status').textContent()).toContain('Added');
    await page.goto('/p/ceramic-coffee-mug');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await poll(() => page.getByRole('status').textContent()).toContain('Added');
    await page.goto('/cart');
    await poll(() => page.getByRole('row').count()).toBeGreaterThan(2);
    await fitsThePhone(page, '/cart');
    // The Subtotal column, once cut off, is read with its label on the line of its row.
    const subtotal = page.locator('td[data-label="Subtotal"]').first();
    expect(await subtotal.isVisible()).toBe(true);
    await page.goto('/checkout');
    await page.getByLabel('Country').selectOption('US');
    await page.getByLabel('State', { exact: true }).selectOption('CA');
    await fitsThePhone(page, '/checkout');
    for (const path of ['/sign-in', '/sign-up']) {
      await page.goto(path);
      await fitsThePhone(page, path);
    }
    const order = await placeDemoOrder(running.shop);
    await payWithSandbox(running.shop, order);
    const orderPage = await guestOrderPage(running.browser, order, phone);
    await fitsThePhone(orderPage, '/orders/:alias');
    expect(running.browser.errors).toEqual([]);
  });

  it('fits the dashboard: every section, an order, a product, a promotion', async () => {
    const order = await placeDemoOrder(running.shop, 'narrow@example.com');
    await payWithSandbox(running.shop, order);
    const page = await signedIn(running.browser, '/admin/', { viewport: phone });
    await fitsThePhone(page, '/admin/');
    const paths = dashboardPages(order.alias);
    for (const path of paths) {
      await page.goto(path);
      await fitsThePhone(page, path);
    }
    // The orders list: its Status, Payment and Total read in full on the row's block.
    await page.goto('/admin/orders');
    const row = page.getByRole('row').filter({ hasText: 'narrow@example.com' });
    await poll(() => row.locator('td[data-label="Total"]').textContent()).toMatch(/USD/);
    for (const label of ['Status', 'Payment', 'Total']) {
      const box = await row.locator(`td[data-label="${label}"]`).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= phone.width, label).toBe(true);
    }
    // A promotion's page and a webhook endpoint's, made for it.
    await page.goto('/admin/promotions');
    const promotion = page.locator('main a[href^="/admin/promotions/"]').filter({ hasNotText: /new/i }).first();
    if ((await promotion.count()) > 0) {
      await promotion.click();
      await fitsThePhone(page, '/admin/promotions/:id');
    }
    expect(running.browser.errors).toEqual([]);
  });
});

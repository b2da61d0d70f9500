// Issue #29's "quality measured in CI": axe-core (through @axe-core/playwright) finds no violation on any page of the
// shop or the dashboard, in Debian's Chromium, each page checked once it has loaded what it shows. A failure lists
// every violation: its rule, its impact, what it means and the elements it was found on.
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dashboardPages, guestOrderPage, placeDemoOrder, shopAndBrowser, signedIn } from './harness.js';

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });
/** A test checks many pages in turn (a few seconds each, more on a busy machine). */
const MANY_PAGES = 180_000;

/** The page once it has shown its h1 and nothing says "Loading…" any more. */
async function loaded(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await poll(() => page.getByRole('heading', { level: 1 }).count()).toBeGreaterThan(0);
  await poll(() => page.getByText(/^Loading/).count()).toBe(0);
}

/** axe-core's violations on the page, in words (rule, impact, help, the elements), empty when there is none. */
async function violations(page: Page): Promise<string[]> {
  await loaded(page);
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map(
    (v) =>
      `${new URL(page.url()).pathname}: ${v.id} (${v.impact ?? 'no impact given'}): ${v.help}\n`
      + v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary ?? ''}`.replace(/\n/g, ' ')).join('\n'),
  );
}

/** Checks each path in turn on `page`, and fails once with every violation found on any of them. */
async function expectNoViolations(page: Page, paths: string[]): Promise<void> {
  const found: string[] = [];
  for (const path of paths) {
    await page.goto(path);
    found.push(...(await violations(page)));
  }
  expect(found, `axe-core found violations:\n${found.join('\n')}`).toEqual([]);
}

describe('accessibility (axe-core) of every page', () => {
  const running = shopAndBrowser();

  it(
    "finds no violation on the shop's pages: home, category, collection, product, search, sign-in, sign-up",
    async () => {
      const page = await running.browser.newPage();
      await expectNoViolations(page, [
        '/',
        '/c/coffee',
        '/c/mugs',
        '/collections/gift-ideas',
        '/p/organic-cotton-t-shirt',
        '/p/ceramic-coffee-mug',
        '/search?q=mug',
        '/sign-in',
        '/sign-up',
        '/cart',
      ]);
      expect(running.browser.errors).toEqual([]);
    },
    MANY_PAGES,
  );

  it(
    'finds no violation on the cart with an item, the checkout and a guest order page, at 375 px as well',
    async () => {
      for (const viewport of [
        { width: 1280, height: 800 },
        { width: 375, height: 740 },
      ]) {
        const page = await running.browser.newPage({ viewport });
        await page.goto('/p/ceramic-coffee-mug');
        await page.getByRole('button', { name: 'Add to cart' }).click();
        await page.getByRole('status').filter({ hasText: 'to your cart' }).waitFor();
        await expectNoViolations(page, ['/cart', '/checkout']);
        const order = await guestOrderPage(running.browser, await placeDemoOrder(running.shop), viewport);
        expect(await violations(order)).toEqual([]);
      }
      expect(running.browser.errors).toEqual([]);
    },
    MANY_PAGES,
  );

  it(
    "finds no violation on the dashboard's sign-in, home and every section, an order, a product and a promotion",
    async () => {
      const order = await placeDemoOrder(running.shop);
      const signIn = await running.browser.newPage();
      await signIn.goto('/admin/');
      expect(await violations(signIn)).toEqual([]);
      const page = await signedIn(running.browser, '/admin/');
      await expectNoViolations(page, ['/admin/', ...dashboardPages(order.alias)]);
      expect(running.browser.errors).toEqual([]);
    },
    2 * MANY_PAGES,
  );
});

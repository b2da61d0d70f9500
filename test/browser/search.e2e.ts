import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { nothingCutOff, shopAndBrowser } from './harness.js';

// Product search in the shop (issue #29 items 4 and 5): the header's search box, a typo forgiven, the results page's
// filters with their counts (each applied and taken off by its link), and at 390 px the products first with the
// filters behind their button. The demo store's hoodie comes in Black and Grey; its mug is in Coffee > Mugs.
describe('search in the shop', () => {
  const running = shopAndBrowser();
  const phone = { width: 390, height: 844 };
  const poll = expect.poll;
  const cards = (page: Page) => page.locator('main .card h2');
  const filters = (page: Page) => page.getByRole('complementary', { name: 'Filters' });
  const query = (page: Page) => new URL(page.url()).searchParams;

  it('finds the mug from a typo typed in the header, and narrows the results by a filter and back', async () => {
    const page = await running.browser.newPage();
    await page.goto('/');
    await page.getByRole('searchbox', { name: 'Search products' }).fill('cofee mugg');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Search: cofee mugg');
    expect(query(page).get('q')).toBe('cofee mugg');
    await poll(() => cards(page).allTextContents()).toContain('Ceramic Coffee Mug');
    await poll(() => page.title()).toMatch(/cofee mugg/);

    await page.goto('/search?q=hoodie');
    await poll(() => cards(page).allTextContents()).toEqual(['Pullover Hoodie']);
    const grey = filters(page).getByRole('link', { name: /Grey \(1\)/ });
    expect(await filters(page).getByRole('heading', { name: 'Colour' }).count()).toBe(1);
    await grey.click();
    await poll(() => query(page).getAll('option')).toEqual(['Colour:Grey']);
    await poll(() => grey.getAttribute('aria-current')).toBe('true');
    expect(await cards(page).allTextContents()).toEqual(['Pullover Hoodie']);
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await poll(() => query(page).getAll('option')).toEqual([]);
    expect(await filters(page).getByRole('link', { name: /Grey/ }).getAttribute('aria-current')).toBe(null);

    await page.goto('/search?q=zzzzqqq');
    await poll(() => page.getByText('No products match.').count()).toBe(1);
    expect(running.browser.errors).toEqual([]);
  });

  it('shows the products first on a phone, the filters behind their button, nothing cut off', async () => {
    const page = await running.browser.newPage({ viewport: phone });
    await page.goto('/search?q=hoodie');
    await poll(() => cards(page).allTextContents()).toEqual(['Pullover Hoodie']);
    const toggle = filters(page).getByRole('button', { name: 'Filters' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await filters(page).getByRole('link', { name: /Grey/ }).isVisible()).toBe(false);
    // The first product is on the first screen.
    const top = (await cards(page).first().boundingBox())?.y ?? Number.POSITIVE_INFINITY;
    expect(top).toBeLessThan(phone.height);
    expect(await nothingCutOff(page, phone.width)).toBe(true);
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await poll(() => filters(page).getByRole('link', { name: /Grey/ }).isVisible()).toBe(true);
    expect(await nothingCutOff(page, phone.width)).toBe(true);
    expect(running.browser.errors).toEqual([]);
  });
});

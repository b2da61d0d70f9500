import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { shopAndBrowser, signedIn } from './harness.js';

// Options in the web apps (issue #29 item 3): the shop's product page chooses the demo hoodie by Size and Colour,
// disabling what is not made (L / Grey) or sold out (M / Grey); the dashboard's option editor adds a colour and
// generates the missing variants.
describe('product options in the shop and the dashboard', () => {
  const running = shopAndBrowser();
  const poll = expect.poll;
  const group = (page: Page, name: string) => page.getByRole('group', { name, exact: true });
  const radio = (page: Page, option: string, value: string) =>
    group(page, option).getByRole('radio', { name: new RegExp(`^${value}( |$)`) });

  it('chooses by option, disables what is not made or sold out, and keeps the variant in the URL', async () => {
    const page = await running.browser.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto('/');
    await page.getByRole('link', { name: 'Pullover Hoodie' }).click();
    await page.getByRole('heading', { level: 1, name: 'Pullover Hoodie' }).waitFor();
    await poll(() => radio(page, 'Size', 'S').isChecked()).toBe(true);
    expect(await radio(page, 'Colour', 'Black').isChecked()).toBe(true);

    await radio(page, 'Colour', 'Grey').check();
    await poll(() => page.url()).toMatch(/\?variant=\d+$/);
    // With Grey: M is sold out, L is not made; both disabled with the reason read with them.
    expect(await radio(page, 'Size', 'M').isDisabled()).toBe(true);
    expect(await radio(page, 'Size', 'L').isDisabled()).toBe(true);
    expect(await group(page, 'Size').textContent()).toContain('sold out');
    expect(await group(page, 'Size').textContent()).toContain('not available');
    expect(await radio(page, 'Size', 'M').getAttribute('aria-describedby')).toBeTruthy();

    await radio(page, 'Colour', 'Black').check();
    await radio(page, 'Size', 'L').check();
    await poll(() => page.locator('.price').textContent()).toContain('52.00');
    expect(await page.locator('.price').textContent()).toContain('Only 3 left');
    // A reload opens the same variant.
    await page.reload();
    await poll(() => radio(page, 'Size', 'L').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await poll(() => page.getByRole('status').filter({ hasText: 'to your cart' }).textContent()).toContain(
      'Pullover Hoodie (L / Black)',
    );
  });

  it('shows no option groups for a product without options, and the list of variants for one option', async () => {
    const page = await running.browser.newPage();
    await page.goto('/');
    await page.getByRole('link', { name: 'Ceramic Coffee Mug' }).click();
    await page.getByRole('heading', { level: 1, name: 'Ceramic Coffee Mug' }).waitFor();
    await poll(() => page.getByRole('button', { name: 'Add to cart' }).isEnabled()).toBe(true);
    expect(await page.getByRole('radio').count()).toBe(0);
    await page.goto('/');
    await page.getByRole('link', { name: 'Organic Cotton T-Shirt' }).click();
    await poll(() => page.getByRole('radio').count()).toBe(3);
    expect(await page.getByRole('group', { name: 'Option' }).count()).toBe(1);
  });

  it('adds a colour in the dashboard and generates the missing variants', async () => {
    const products = await fetch(`${running.shop.baseUrl}/product/storefront/api/products/by-handle/pullover-hoodie/`);
    const { id } = (await products.json()) as { id: number };
    const page = await signedIn(running.browser, `/admin/products/${id}`);
    const options = page.getByRole('region', { name: 'Options' });
    await poll(() => options.getByLabel('Option 2 values').inputValue()).toBe('Black, Grey');
    await options.getByLabel('Option 2 values').fill('Black, Grey, Navy');
    await options.getByRole('button', { name: 'Save options' }).click();
    await poll(() => options.getByRole('status').filter({ hasText: 'Options saved' }).count()).toBe(1);
    await options.getByLabel('Price').fill('50.00');
    await options.getByLabel('Stock').fill('2');
    await options.getByLabel('SKU pattern').fill('HOODIE-{Size}-{Colour}');
    await options.getByRole('button', { name: 'Generate variants' }).click();
    // S, M, L in Navy, and L / Grey, which the demo did not make.
    await poll(() => options.getByRole('status').filter({ hasText: 'variants made' }).textContent()).toContain(
      '4 variants made',
    );
    await poll(() => page.getByRole('row', { name: /^L \/ Navy/ }).count()).toBe(1);
    // A value given twice is refused beside the option's values.
    await options.getByLabel('Option 1 values').fill('S, M, s');
    await options.getByRole('button', { name: 'Save options' }).click();
    await poll(() => options.locator('.field-error').first().textContent()).toContain('given twice');
    // Renamed in place, an option and a value keep their variants: L / Navy becomes L / Midnight.
    await options.getByLabel('Option 1 values').fill('S, M, L');
    await options.getByLabel('Option 2 name').fill('Color');
    await options.getByLabel('Option 2 values').fill('Black, Grey, Midnight');
    await options.getByRole('button', { name: 'Save options' }).click();
    await poll(() => options.getByRole('status').filter({ hasText: 'Options saved: Size, Color.' }).count()).toBe(1);
    await poll(() => page.getByRole('row', { name: /^L \/ Midnight/ }).count()).toBe(1);
    expect(await page.getByRole('row', { name: /Navy/ }).count()).toBe(0);
  });
});

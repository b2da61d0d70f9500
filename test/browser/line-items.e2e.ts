import { describe, expect, it } from 'vitest';
import { guestOrderPage, nothingCutOff, placeDemoOrder, shopAndBrowser, signedIn } from './harness.js';

/** Whether an <img> has loaded a picture (the tests' TypeScript has no DOM types: the element is read loosely). */
const loaded = (img: unknown) => {
  const image = img as { complete: boolean; naturalWidth: number };
  return image.complete && image.naturalWidth > 0;
};

const phone = { width: 390, height: 844 };
/** The shop shares two cores with other work: pages may take a while to come. */
const SLOW = { timeout: 20_000 };

// What lines show of the variant sold (issue #29 items 3 and 5): the cart's and the order page's thumbnails and option
// values, at a phone's width; and the dashboard's "Add a variant", which asks a value of each of the product's options.
describe('line items with their options and images', () => {
  const running = shopAndBrowser();
  const poll = expect.poll;

  it("shows the cart's line with its thumbnail and option values, nothing cut off at 390 px", async () => {
    const page = await running.browser.newPage({ viewport: phone });
    page.setDefaultTimeout(15_000);
    await page.goto('/');
    await page.getByRole('link', { name: 'Pullover Hoodie' }).click();
    await page.getByRole('heading', { level: 1, name: 'Pullover Hoodie' }).waitFor();
    await page
      .getByRole('group', { name: 'Size', exact: true })
      .getByRole('radio', { name: /^L( |$)/ })
      .check();
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await poll(() => page.getByRole('status').filter({ hasText: 'to your cart' }).count()).toBe(1);
    await page.goto('/cart');
    const row = page.getByRole('row', { name: /Pullover Hoodie/ });
    await poll(() => row.textContent()).toContain('Size: L · Colour: Black');
    // Its variant's name, "L / Black", says nothing more than its option values.
    expect(await row.textContent()).not.toContain('L / Black');
    const thumbnail = row.locator('img.line-image');
    await poll(() => thumbnail.evaluate(loaded)).toBe(true);
    expect(await thumbnail.getAttribute('alt')).toBeTruthy();
    expect(Number(await thumbnail.getAttribute('width'))).toBeGreaterThan(0);
    expect(Number(await thumbnail.getAttribute('height'))).toBeGreaterThan(0);
    expect(await row.locator('picture source[type="image/avif"]').count()).toBe(1);
    expect(await nothingCutOff(page, phone.width)).toBe(true);
    expect(running.browser.errors).toEqual([]);
  });

  it("shows the order page's lines with their images and its address, nothing cut off at 390 px", async () => {
    const order = await placeDemoOrder(running.shop);
    const page = await guestOrderPage(running.browser, order, phone);
    const images = page.locator('main img.line-image');
    await poll(() => images.count(), SLOW).toBe(2);
    await poll(() => images.first().evaluate(loaded), SLOW).toBe(true);
    expect(await images.first().getAttribute('alt')).toBeTruthy();
    // The address as a US parcel has it: city, state and ZIP code on one line, then the country by name.
    const address = page.locator('main address');
    expect(await address.locator('div').allTextContents()).toEqual([
      'Ada Lovelace',
      '1 Main St',
      'Los Angeles, CA 90001',
      'United States',
    ]);
    expect(await nothingCutOff(page, phone.width)).toBe(true);
    expect(running.browser.errors).toEqual([]);
  });

  it('adds a variant in the dashboard by a value of each option, a missing one refused beside it', async () => {
    const found = await fetch(`${running.shop.baseUrl}/product/storefront/api/products/by-handle/pullover-hoodie/`);
    const { id } = (await found.json()) as { id: number };
    const page = await signedIn(running.browser, `/admin/products/${id}`, { viewport: phone });
    const form = page.getByRole('region', { name: 'Add a variant' });
    await form.getByLabel('Size').selectOption('L');
    await form.getByLabel('Variant name').fill('L / Grey');
    await form.getByLabel(/^Price/).fill('52.00');
    await form.getByRole('button', { name: 'Add variant' }).click();
    // No colour chosen: the API's refusal shows beside the Colour select.
    const colour = form.getByLabel('Colour');
    await poll(() => colour.getAttribute('aria-invalid')).toBe('true');
    expect(await form.locator('.field-error').first().textContent()).toContain('required');
    await colour.selectOption('Grey');
    await form.getByRole('button', { name: 'Add variant' }).click();
    await poll(() => form.getByRole('status').filter({ hasText: 'added' }).count()).toBe(1);
    await poll(() => page.getByRole('row', { name: /L \/ Grey/ }).count(), SLOW).toBe(1);
    expect(await nothingCutOff(page, phone.width)).toBe(true);
  });
});

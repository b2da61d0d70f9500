import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { shopAndBrowser, signedIn } from './harness.js';

/** Whether an <img> has loaded a picture (the tests' TypeScript has no DOM types: the element is read loosely). */
const loaded = (img: unknown) => {
  const image = img as { complete: boolean; naturalWidth: number };
  return image.complete && image.naturalWidth > 0;
};

// Product images (issue #29 items 1, 5, 6): the demo store's pictures in the shop's list and on a product page, and
// an image uploaded, described, reordered and deleted on the dashboard's product page.
describe('product images', () => {
  const running = shopAndBrowser();

  it('shows each demo product with its picture, sized before it loads, and a gallery on the product page', async () => {
    const page = await running.browser.newPage();
    await page.goto('/');
    const first = page.locator('.card img').first();
    await expect.poll(() => first.evaluate(loaded)).toBe(true);
    expect(await first.getAttribute('width')).toBe('1200');
    expect(await first.getAttribute('height')).toBe('900');
    expect(await page.locator('.card picture source[type="image/avif"]').count()).toBeGreaterThan(0);

    await page.getByRole('link', { name: 'Organic Cotton T-Shirt' }).click();
    const main = page.locator('.gallery-main');
    await expect.poll(() => main.evaluate(loaded)).toBe(true);
    // The chosen variant's own picture comes first.
    expect(await main.getAttribute('alt')).toMatch(/Organic Cotton T-Shirt, Small/);
    await page.getByRole('radio', { name: /Medium/ }).check();
    await expect.poll(() => main.getAttribute('alt')).toMatch(/Organic Cotton T-Shirt, Medium/);
    expect(running.browser.errors).toEqual([]);
  });

  it('uploads an image with its alt text on the dashboard, moves it first and deletes it', async () => {
    const page = await signedIn(running.browser, '/admin/products');
    await page.getByRole('link', { name: 'Ceramic Coffee Mug' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Images' }).count()).toBe(1);
    const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#2a7' } })
      .png()
      .toBuffer();
    await page.locator('input[type="file"]').setInputFiles({ name: 'green.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('button', { name: 'Upload 1 image' }).click();
    await expect.poll(() => page.getByText('Say what the image shows').count()).toBeGreaterThan(0);
    await page.getByLabel('Alt text for green.png').fill('A green square');
    await page.getByRole('button', { name: 'Upload 1 image' }).click();
    await expect.poll(() => page.getByRole('status').allTextContents()).toContain('1 image uploaded.');
    const listed = page.locator('.image-list img');
    await expect.poll(() => listed.count()).toBe(2);
    expect(await listed.nth(1).getAttribute('alt')).toBe('A green square');

    await page.getByRole('button', { name: 'Move up: A green square' }).click();
    await expect.poll(() => listed.first().getAttribute('alt')).toBe('A green square');
    await page.locator('.image-list > li').first().getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => listed.count()).toBe(1);
    expect(running.browser.errors).toEqual([]);
  });
});

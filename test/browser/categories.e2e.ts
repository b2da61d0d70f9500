import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { nothingCutOff, shopAndBrowser, signedIn } from './harness.js';

// Categories and collections in the web apps (issue #29 item 2): the shop's category bar, category, collection and
// product pages with breadcrumbs and SEO, the checkout's address choices, and the dashboard's category and collection
// editors. The demo store has Coffee > Mugs (the mug in Mugs, the beans in Coffee) and the "Gift ideas" collection.
describe('categories and collections in the shop and the dashboard', () => {
  const running = shopAndBrowser();
  const phone = { width: 390, height: 844 };
  const poll = expect.poll;
  const crumbs = (page: Page) =>
    page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('listitem').allTextContents();
  const meta = (page: Page) =>
    page.evaluate(`document.querySelector('meta[name="description"]')?.getAttribute('content') ?? null`);

  it('takes a shopper from the category bar to a category, a subcategory and a product, at 390 px', async () => {
    const page = await running.browser.newPage({ viewport: phone });
    await page.goto('/');
    const bar = page.getByRole('navigation', { name: 'Categories' });
    const toggle = bar.getByRole('button', { name: 'Categories' });
    // On a phone the tree is behind its button.
    await poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await bar.getByRole('link', { name: 'Coffee' }).isVisible()).toBe(false);
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await nothingCutOff(page, phone.width)).toBe(true);
    await bar.getByRole('link', { name: 'Coffee' }).click();

    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Coffee');
    expect(new URL(page.url()).pathname).toBe('/c/coffee');
    // The title is set by an effect, a frame after the heading renders.
    await poll(() => page.title()).toBe('Coffee');
    expect(await crumbs(page)).toEqual(['Products', 'Coffee']);
    // The products of Coffee and of Mugs under it, as cards priced like the product list.
    const cards = page.locator('main .card h2');
    await poll(() => cards.allTextContents()).toEqual(['Ceramic Coffee Mug', 'Espresso Beans']);
    expect(await page.locator('main .card').first().textContent()).toContain('14.50 USD');
    // The tree closed again when the page opened.
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await nothingCutOff(page, phone.width)).toBe(true);

    await page.getByRole('navigation', { name: 'Subcategories' }).getByRole('link', { name: 'Mugs' }).click();
    await poll(() => crumbs(page)).toEqual(['Products', 'Coffee', 'Mugs']);
    await poll(() => cards.allTextContents()).toEqual(['Ceramic Coffee Mug']);

    await page.getByRole('link', { name: 'Ceramic Coffee Mug' }).click();
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Ceramic Coffee Mug');
    expect(new URL(page.url()).pathname).toBe('/p/ceramic-coffee-mug');
    await poll(() => crumbs(page)).toEqual(['Products', 'Coffee', 'Mugs', 'Ceramic Coffee Mug']);
    await poll(() => page.title()).toBe('Ceramic Coffee Mug');
    await poll(() => meta(page)).toBe('Stoneware mug, 350 ml.');
    expect(await nothingCutOff(page, phone.width)).toBe(true);
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Coffee' }).click();
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Coffee');

    // The older address by id still opens the product, and is replaced by its handle's.
    await page.goto('/products/2');
    await poll(() => new URL(page.url()).pathname).toBe('/p/ceramic-coffee-mug');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Ceramic Coffee Mug');

    // A collection, its products in the collection's order.
    await page.goto('/collections/gift-ideas');
    await poll(() => cards.allTextContents()).toEqual(['Gift Card', 'Hardcover Notebook', 'Ceramic Coffee Mug']);
    expect(await crumbs(page)).toEqual(['Products', 'Gift ideas']);
    expect(await nothingCutOff(page, phone.width)).toBe(true);

    await page.goto('/c/no-such-category');
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Category not found');
    expect(running.browser.errors).toEqual([]);
  });

  it('offers the countries the store ships to at checkout, with a state list for the US', async () => {
    const page = await running.browser.newPage({ viewport: phone });
    await page.goto('/p/ceramic-coffee-mug');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await poll(() => page.getByRole('status').textContent()).toContain('Added');
    await page.goto('/checkout');
    const country = page.getByLabel('Country');
    // The demo's Standard method has rates for the US, Germany and the UK, and nowhere else.
    await poll(() => country.locator('option').allTextContents()).toEqual([
      'Choose a country',
      'Germany',
      'United Kingdom',
      'United States',
    ]);
    await country.selectOption('US');
    const state = page.getByLabel('State', { exact: true });
    await poll(() => state.locator('option').count()).toBe(60);
    await state.selectOption({ label: 'California' });
    expect(await state.inputValue()).toBe('CA');
    // Germany has no list here: a free field, and the state chosen for the US is not kept.
    await country.selectOption('DE');
    await poll(() => page.getByLabel('State or region').inputValue()).toBe('');
    expect(await nothingCutOff(page, phone.width)).toBe(true);
    expect(running.browser.errors).toEqual([]);
  });

  it('edits the category tree in the dashboard, with the API refusals beside their fields', async () => {
    const page = await signedIn(running.browser, '/admin/categories');
    await poll(() => page.getByRole('heading', { name: 'Categories', level: 1 }).count()).toBe(1);
    const tree = page.getByRole('navigation', { name: 'Category tree' });
    await poll(() => tree.getByRole('listitem').count()).toBe(2);
    const fieldErrorOf = (form: string, label: string) =>
      page
        .getByRole('form', { name: form })
        .locator('.field', { has: page.getByLabel(label, { exact: true }) })
        .locator('.field-error')
        .textContent();

    // Create Tea at the top, then Green tea under it, with an SEO title.
    const create = page.getByRole('form', { name: 'New category' });
    await create.getByLabel('Name', { exact: true }).fill('Tea');
    await create.getByRole('button', { name: 'Create category' }).click();
    await poll(() => create.getByRole('status').textContent()).toBe('Category Tea created (tea).');
    await create.getByLabel('Name', { exact: true }).fill('Green tea');
    await create.getByLabel('Parent').selectOption({ label: 'Tea' });
    await create.getByLabel('SEO title', { exact: true }).fill('Green tea, loose leaf');
    await create.getByRole('button', { name: 'Create category' }).click();
    await poll(() => tree.getByRole('listitem').count()).toBe(4);
    const res = await fetch(`${running.shop.baseUrl}/product/storefront/api/categories/green-tea/`);
    expect(((await res.json()) as { seo: { title: string } }).seo.title).toBe('Green tea, loose leaf');

    // A handle another category has: 409 handle_taken, beside Handle.
    await tree.getByRole('button', { name: 'Edit Tea' }).click();
    const edit = page.getByRole('form', { name: 'Edit Tea' });
    await edit.getByLabel('Handle').fill('coffee');
    await edit.getByRole('button', { name: 'Save category' }).click();
    await poll(() => fieldErrorOf('Edit Tea', 'Handle')).toBe('is already in use');
    // Under its own subcategory: 422 category_cycle, beside Parent.
    await edit.getByLabel('Handle').fill('tea');
    await edit.getByLabel('Parent').selectOption({ label: 'Tea › Green tea (under this category)' });
    await edit.getByRole('button', { name: 'Save category' }).click();
    await poll(() => fieldErrorOf('Edit Tea', 'Parent')).toBe('is the category itself or one of its subcategories');
    // Under Coffee instead: moved, with Green tea.
    await edit.getByLabel('Parent').selectOption({ label: 'Coffee' });
    await edit.getByRole('button', { name: 'Save category' }).click();
    await poll(() => edit.getByRole('status').textContent()).toBe('Category Tea saved.');
    const coffee = tree.getByRole('listitem').filter({ hasText: 'Coffee' }).first();
    await poll(() => coffee.getByRole('listitem').allTextContents()).toEqual([
      expect.stringContaining('Mugs'),
      expect.stringContaining('Tea'),
      expect.stringContaining('Green tea'),
    ]);

    // A category with subcategories is not deleted: the refusal names them beside it.
    await tree.getByRole('button', { name: 'Delete Tea' }).click();
    await tree.getByRole('button', { name: 'Delete Tea' }).click();
    await poll(() => tree.getByRole('alert').textContent()).toBe(
      'It has subcategories (Green tea): move or delete them first.',
    );
    await tree.getByRole('button', { name: 'Delete Green tea' }).click();
    await tree.getByRole('button', { name: 'Delete Green tea' }).click();
    await poll(() => page.getByRole('status').first().textContent()).toBe('Category Green tea deleted.');
    await poll(() => tree.getByRole('listitem').count()).toBe(3);
    expect(await nothingCutOff(page, 1280)).toBe(true);
    expect(running.browser.errors).toEqual([]);
  });

  it('makes a collection, orders its products, and places a product in a category from its page', async () => {
    const page = await signedIn(running.browser, '/admin/collections', { viewport: phone });
    const create = page.getByRole('form', { name: 'New collection' });
    await create.getByLabel('Name', { exact: true }).fill('Staff picks');
    for (const name of ['Notebook', 'Mug']) {
      await create.getByLabel('Find a product to add').fill(name);
      await create.getByRole('button', { name: 'Find', exact: true }).click();
      await create.getByRole('button', { name: /^Add / }).first().click();
    }
    await create.getByRole('button', { name: 'Move Ceramic Coffee Mug up' }).click();
    await create.getByRole('button', { name: 'Create collection' }).click();
    await poll(() => create.getByRole('status').textContent()).toBe('Collection Staff picks created with 2 products.');
    expect(await nothingCutOff(page, phone.width)).toBe(true);
    const shown = await fetch(`${running.shop.baseUrl}/product/storefront/api/collections/staff-picks/`);
    const items = ((await shown.json()) as { products: { items: { name: string }[] } }).products.items;
    expect(items.map((p) => p.name)).toEqual(['Ceramic Coffee Mug', 'Hardcover Notebook']);

    // The notebook into Mugs, from its page.
    await page.goto('/admin/products');
    await page.getByRole('link', { name: 'Hardcover Notebook' }).click();
    const placement = page.getByRole('form', { name: 'In the shop' });
    await placement.getByRole('checkbox', { name: 'Coffee › Mugs' }).check();
    await placement.getByRole('checkbox', { name: 'Staff picks' }).uncheck();
    await placement.getByRole('button', { name: 'Save shop placement' }).click();
    await poll(() => placement.getByRole('status').textContent()).toContain('in 1 categories');
    const mugs = await fetch(`${running.shop.baseUrl}/product/storefront/api/categories/mugs/`);
    const inMugs = ((await mugs.json()) as { products: { items: { name: string }[] } }).products.items;
    expect(inMugs.map((p) => p.name).sort()).toEqual(['Ceramic Coffee Mug', 'Hardcover Notebook']);
    const picks = await fetch(`${running.shop.baseUrl}/product/storefront/api/collections/staff-picks/`);
    const left = ((await picks.json()) as { products: { items: { name: string }[] } }).products.items;
    expect(left.map((p) => p.name)).toEqual(['Ceramic Coffee Mug']);
    expect(await nothingCutOff(page, phone.width)).toBe(true);
    expect(running.browser.errors).toEqual([]);
  });
});

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { scrollsSideways, shopAndBrowser, signedIn } from './harness.js';

// The dashboard's catalog, tax, shipping and promotions pages (issue #17 item 3), driven as a store owner would.
describe('the dashboard: products, tax, shipping and promotions', () => {
  const running = shopAndBrowser();

  const statusText = (page: Page) => page.getByRole('status').allTextContents();

  it('creates a product with a variant and stock, which the storefront then lists', async () => {
    const page = await signedIn(running.browser, '/admin/products');
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

    // A variant's edit: a price finer than the currency is refused beside the price; then stock and price change.
    await page.getByRole('button', { name: 'Edit Steel' }).click();
    const editor = page.getByRole('form', { name: 'Edit variant Steel' });
    await editor.getByLabel(/^Price/).fill('18.005');
    await editor.getByRole('button', { name: 'Save variant' }).click();
    const price = editor.locator('.field', { has: page.getByLabel(/^Price/) });
    await expect.poll(() => price.locator('.field-error').textContent()).toMatch(/decimal/);
    await editor.getByLabel(/^Price/).fill('18.00');
    await editor.getByLabel('Stock on hand').fill('7');
    await editor.getByRole('button', { name: 'Save variant' }).click();
    await expect.poll(() => statusText(page)).toContain('Variant Steel saved.');
    await expect.poll(() => row.textContent()).toMatch(/18\.00 USD.*7/);

    const shopper = await running.browser.newPage();
    await shopper.goto('/');
    await expect.poll(() => shopper.getByRole('link', { name: 'Travel mug' }).count()).toBe(1);
    expect(running.browser.errors).toEqual([]);
  });

  it('creates a tax class with a rate, a default rate, and a shipping method with a rate', async () => {
    const page = await signedIn(running.browser, '/admin/tax');
    await expect.poll(() => page.getByRole('heading', { name: 'Tax', level: 1 }).count()).toBe(1);
    await page.getByLabel('New tax class name').fill('Books');
    await page.getByRole('button', { name: 'Create tax class' }).click();
    await expect.poll(() => statusText(page)).toContain('Tax class Books created.');

    const newRate = page.getByRole('form', { name: 'New tax rate' });
    await newRate.getByLabel('Applies to').selectOption({ label: 'Class Books' });
    await newRate.getByLabel('Country').fill('fr');
    await newRate.getByLabel('Rate (%)').fill('5.50');
    await newRate.getByRole('button', { name: 'Create tax rate' }).click();
    await expect.poll(() => statusText(page)).toContain('Tax rate 5.5 % for FR created.');
    await expect.poll(() => page.getByRole('row', { name: /Books\s*FR\s*5\.5 %/ }).count()).toBe(1);

    // A rate over 100 % is refused by the API, and its words appear beside the rate.
    await newRate.getByLabel('Applies to').selectOption({ label: 'Default rate (classes without a rate here)' });
    await newRate.getByLabel('Country').fill('FR');
    await newRate.getByLabel('Rate (%)').fill('120');
    await newRate.getByRole('button', { name: 'Create tax rate' }).click();
    const rateField = newRate.locator('.field', { has: page.getByLabel('Rate (%)') });
    await expect.poll(() => rateField.locator('.field-error').textContent()).toMatch(/100/);
    await newRate.getByLabel('Rate (%)').fill('20');
    await newRate.getByRole('button', { name: 'Create tax rate' }).click();
    await expect.poll(() => page.getByRole('row', { name: /Default\s*FR\s*20 %/ }).count()).toBe(1);

    const shipping = await signedIn(running.browser, '/admin/shipping');
    await expect.poll(() => shipping.getByRole('heading', { name: 'Shipping', level: 1 }).count()).toBe(1);
    const newMethod = shipping.getByRole('form', { name: 'New shipping method' });
    await newMethod.getByLabel('Method name').fill('Express');
    await newMethod.getByLabel('Description').fill('1 to 2 days');
    await newMethod.getByLabel('Tax class').selectOption({ label: 'Standard' });
    await newMethod.getByRole('button', { name: 'Create shipping method' }).click();
    await expect.poll(() => statusText(shipping)).toContain('Shipping method Express created.');
    await expect.poll(() => shipping.getByRole('row', { name: /Express\s*1 to 2 days\s*Standard/ }).count()).toBe(1);

    const newShippingRate = shipping.getByRole('form', { name: 'New shipping rate' });
    await newShippingRate.getByLabel('Shipping method').selectOption({ label: 'Express' });
    await newShippingRate.getByLabel('Country').fill('FR');
    await newShippingRate.getByLabel('Up to weight (kg)').fill('5');
    await newShippingRate.getByLabel(/^Base rate/).fill('12.90');
    await newShippingRate.getByLabel(/^Per kg/).fill('1.005');
    await newShippingRate.getByRole('button', { name: 'Create shipping rate' }).click();
    const perKg = newShippingRate.locator('.field', { has: shipping.getByLabel(/^Per kg/) });
    await expect.poll(() => perKg.locator('.field-error').textContent()).toMatch(/decimal/);
    await newShippingRate.getByLabel(/^Per kg/).fill('1.50');
    await newShippingRate.getByRole('button', { name: 'Create shipping rate' }).click();
    await expect
      .poll(() => shipping.getByRole('row', { name: /Express\s*FR\s*0 to 5\s*12\.90 USD\s*1\.50 USD/ }).count())
      .toBe(1);
    expect(running.browser.errors).toEqual([]);
  });

  /** `datetime-local` text for now + `offsetMs`, in the browser's time zone. */
  const localDateTime = (page: Page, offsetMs: number) =>
    page.evaluate(`(() => {
      const d = new Date(Date.now() + ${offsetMs});
      const p = (n) => String(n).padStart(2, '0');
      const day = d.getFullYear() + '-' + p(d.getMonth() + 1) + '-' + p(d.getDate());
      return day + 'T' + p(d.getHours()) + ':' + p(d.getMinutes());
    })()`) as Promise<string>;

  it("sets up issue #15's store owner's promotions, and an estimate applies both", async () => {
    const page = await signedIn(running.browser, '/admin/promotions/new');
    await expect.poll(() => page.getByRole('heading', { name: 'New promotion', level: 1 }).count()).toBe(1);
    await page.getByLabel('Name').fill('10 % off everything this week');
    await page.getByLabel('Starts').fill(await localDateTime(page, -60 * 60 * 1000));
    await page.getByLabel('Ends').fill(await localDateTime(page, 7 * 24 * 60 * 60 * 1000));
    await page.getByLabel('Discount').selectOption({ label: 'Percent off the order' });
    await page.getByLabel('Percent off').fill('10');
    await page.getByRole('button', { name: 'Create promotion' }).click();
    await expect.poll(() => statusText(page)).toContain('Promotion 10 % off everything this week created.');
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe('10 % off everything this week');
    await expect.poll(() => page.getByText('Automatic ·').count()).toBe(1);

    await page.getByRole('link', { name: 'All promotions' }).click();
    await page.getByRole('link', { name: 'New promotion' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'New promotion', level: 1 }).count()).toBe(1);
    await page.getByLabel('Name').fill('Summer: 5.00 off shipping');
    await page.getByLabel('Code').fill('summer5');
    await page.getByLabel('Discount').selectOption({ label: 'Amount off shipping' });
    await page.getByLabel(/^Amount off shipping/).fill('5.00');
    await page.getByRole('button', { name: 'Create promotion' }).click();
    await expect.poll(() => statusText(page)).toContain('Promotion Summer: 5.00 off shipping created.');
    await expect.poll(() => page.getByText('Code SUMMER5').count()).toBe(1);

    // The list tells automatic promotions from codes.
    await page.goto('/admin/promotions');
    await page.getByLabel('Kind').selectOption({ label: 'Automatic' });
    await page.getByRole('button', { name: 'Filter' }).click();
    // The list shown before the filter's answer arrives has both: wait for the code to go, not for the automatic one.
    await expect.poll(() => page.getByRole('row', { name: /SUMMER5/ }).count()).toBe(0);
    await expect
      .poll(() => page.getByRole('row', { name: /10 % off everything this week\s*Automatic/ }).count())
      .toBe(1);
    await page.getByLabel('Kind').selectOption({ label: 'Codes' });
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect
      .poll(() => page.getByRole('row', { name: /SUMMER5\s*Amount off shipping: 5\.00 USD/ }).count())
      .toBe(1);

    const answer = await fetch(`${running.shop.baseUrl}/order/storefront/api/estimate/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        variants: [{ alias: 'demo-tshirt-s', quantity: 2 }, { alias: 'demo-mug' }],
        shipping_address: { country: 'US', state: 'CA' },
        shipping_method_id: 1,
        promocode: 'summer5',
      }),
    });
    expect(answer.status).toBe(200);
    const estimate = (await answer.json()) as {
      promotions: { name: string; code: string | null; kind: string; amount: string }[];
      shipping_discount: string;
    };
    expect(estimate.promotions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: '10 % off everything this week', code: null, kind: 'order_percentage' }),
        expect.objectContaining({ code: 'SUMMER5', kind: 'shipping_fixed', amount: '5.00' }),
      ]),
    );
    expect(estimate.shipping_discount).toBe('5.00');

    // Edited: a higher priority is saved.
    await page.goto('/admin/promotions');
    await page.getByRole('link', { name: '10 % off everything this week' }).click();
    await expect.poll(() => page.getByLabel('Priority').inputValue()).toBe('0');
    await page.getByLabel('Priority').fill('5');
    await page.getByRole('button', { name: 'Save promotion' }).click();
    await expect.poll(() => statusText(page)).toContain('Promotion 10 % off everything this week saved.');

    // Archived, its page is read-only and the list shows it with the archived ones only.
    await page.goto('/admin/promotions');
    await page.getByRole('link', { name: 'Summer: 5.00 off shipping' }).click();
    await page.getByRole('button', { name: 'Archive promotion' }).click();
    await page.getByRole('button', { name: 'Yes, archive promotion' }).click();
    await expect
      .poll(() => statusText(page))
      .toContain('Promotion archived: it never applies again, and its code is free.');
    expect(await page.getByRole('button', { name: 'Save promotion' }).isDisabled()).toBe(true);
    await page.getByRole('link', { name: 'All promotions' }).click();
    await expect.poll(() => page.getByRole('row', { name: /10 % off everything this week/ }).count()).toBe(1);
    expect(await page.getByRole('row', { name: /SUMMER5/ }).count()).toBe(0);
    await page.getByLabel('Archived ones').check();
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.getByRole('row', { name: /SUMMER5.*Archived/ }).count()).toBe(1);
    expect(running.browser.errors).toEqual([]);
  });

  it("shows the API's refusal of a percent over 100 and a too precise amount beside their inputs", async () => {
    const page = await signedIn(running.browser, '/admin/promotions/new');
    await expect.poll(() => page.getByRole('heading', { name: 'New promotion', level: 1 }).count()).toBe(1);
    await page.getByLabel('Name').fill('Too generous');
    await page.getByRole('button', { name: 'Add condition' }).click();
    await page.getByRole('button', { name: 'Add condition' }).click();
    const second = page.getByRole('group', { name: 'Condition 2' });
    await second.getByLabel('Holds when').selectOption({ label: 'Minimum subtotal' });
    await second.getByLabel(/^Minimum subtotal/).fill('5.001');
    const first = page.getByRole('group', { name: 'Condition 1' });
    await first.getByLabel('Holds when').selectOption({ label: 'Minimum quantity' });
    await first.getByLabel('Units at least').fill('2');
    await page.getByLabel('Percent off').fill('150');
    await page.getByRole('button', { name: 'Create promotion' }).click();

    const errorBeside = (scope: typeof page | typeof first, label: string | RegExp) =>
      scope
        .locator('.field', { has: page.getByLabel(label) })
        .locator('.field-error')
        .textContent();
    await expect.poll(() => errorBeside(page, 'Percent off')).toMatch(/above 0 and up to 100/);
    expect(await errorBeside(second, /^Minimum subtotal/)).toMatch(/decimal/);
    expect(await first.locator('.field-error').count()).toBe(0);
    expect(await page.getByRole('alert').first().textContent()).toMatch(/Validation failed/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('New promotion');

    // Fixed, it is created; every condition kind and action kind can be picked.
    await page.getByLabel('Percent off').fill('15');
    await second.getByLabel(/^Minimum subtotal/).fill('50.00');
    await page.getByRole('button', { name: 'Create promotion' }).click();
    await expect.poll(() => statusText(page)).toContain('Promotion Too generous created.');
    expect(running.browser.errors).toEqual([]);
  });

  it('fits every catalog page in 375 px without scrolling sideways, one h1 each, no console errors', async () => {
    const page = await signedIn(running.browser, '/admin/products', { viewport: { width: 375, height: 740 } });
    const pages = [
      '/admin/products',
      '/admin/products/1',
      '/admin/tax',
      '/admin/shipping',
      '/admin/promotions',
      '/admin/promotions/new',
      '/admin/promotions/1',
    ];
    for (const path of pages) {
      await page.goto(path);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).count(), { message: path }).toBe(1);
      await expect.poll(() => page.getByText('Loading…').count(), { message: path }).toBe(0);
      expect(await scrollsSideways(page), path).toBe(false);
    }
    // The editors open below the tables; they fit too.
    await page.goto('/admin/products/1');
    await page
      .getByRole('button', { name: /^Edit / })
      .first()
      .click();
    expect(await scrollsSideways(page)).toBe(false);
    expect(running.browser.errors).toEqual([]);
  });
});

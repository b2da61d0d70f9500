import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, DEMO_ORDER, nothingCutOff, type Shop, scrollsSideways, shopAndBrowser, signedIn } from './harness.js';

// Markets in the web apps (issue #28 item 6): the dashboard's market pages and prices per currency on the variant
// form, the orders list in each order's currency, and the shop's country/currency selector. The demo store has two
// markets: the default (USD) and eu (Germany, EUR, the small T-shirt at an explicit EUR 23.00).
describe('markets in the shop and the dashboard', () => {
  const running = shopAndBrowser();
  const phone = { width: 390, height: 844 };
  const poll = expect.poll;
  const statusText = (page: Page) => page.getByRole('status').allTextContents();
  const fieldErrorOf = (page: Page, form: string, label: string) =>
    page
      .getByRole('form', { name: form })
      .locator('.field', { has: page.getByLabel(label, { exact: true }) })
      .locator('.field-error')
      .textContent();

  /** The `X-Market` header of every API call the page makes from now on (undefined: none sent). */
  function marketHeaders(page: Page): (string | undefined)[] {
    const seen: (string | undefined)[] = [];
    page.on('request', (request: Request) => {
      if (/\/(storefront|dashboard)\/api\//.test(request.url())) seen.push(request.headers()['x-market']);
    });
    return seen;
  }

  /** What the API answers to a GET with this market, as the shop would ask (the test's own call). */
  async function getJson(shop: Shop, path: string, market?: string): Promise<Record<string, unknown>> {
    const res = await fetch(`${shop.baseUrl}${path}`, { headers: market ? { 'x-market': market } : {} });
    expect(res.status, path).toBe(200);
    return (await res.json()) as Record<string, unknown>;
  }

  it('lists, creates, changes and deletes markets, with the API refusals beside their fields', async () => {
    const page = await signedIn(running.browser, '/admin/markets');
    await poll(() => page.getByRole('heading', { name: 'Markets', level: 1 }).count()).toBe(1);
    const row = (name: RegExp) => page.getByRole('row', { name });
    await poll(() => row(/default\s*Default\s*International\s*USD/).count()).toBe(1);
    expect(await row(/eu\s*Europe\s*EUR, tax included\s*DE\s*0\.92/).count()).toBe(1);
    // The default market is the store itself: it has no Delete.
    expect(
      await row(/^default/)
        .getByRole('button', { name: 'Delete' })
        .count(),
    ).toBe(0);

    const form = page.getByRole('form', { name: 'New market' });
    await form.getByLabel('Code', { exact: true }).fill('jp');
    await form.getByLabel('Market name').fill('Japan');
    await form.getByLabel('Currency', { exact: true }).fill('JPY');
    await form.getByLabel('Exchange rate').fill('151.37');
    await form.getByLabel('Rounding step').fill('100');
    await form.getByLabel('Price ending').fill('0');
    // The live example is the service's own rule: 25.00 USD at 151.37 is ¥3,784, ¥3,800 to the nearest hundred.
    await poll(() => form.getByText(/^Example:/).textContent()).toMatch(/25\.00 USD is 3784 JPY.*3800 JPY/);
    await form.getByLabel('Countries').fill('jp, de');
    await form.getByRole('checkbox', { name: 'Sandbox (test payments)' }).check();
    await form.getByRole('button', { name: 'Create market' }).click();
    // Germany is the demo's eu market's: said beside the countries.
    await poll(() => fieldErrorOf(page, 'New market', 'Countries')).toMatch(/DE is in market "eu"/);
    await form.getByLabel('Countries').fill('JP');
    await form.getByRole('button', { name: 'Create market' }).click();
    await poll(() => statusText(page)).toContain('Market Japan (jp) created.');
    await poll(() => row(/jp\s*Japan\s*JPY\s*JP\s*151\.37/).count()).toBe(1);

    // A code in use is said beside the code.
    await form.getByLabel('Code', { exact: true }).fill('EU');
    await form.getByLabel('Market name').fill('Europe again');
    await form.getByLabel('Currency', { exact: true }).fill('EUR');
    await form.getByLabel('Exchange rate').fill('0.92');
    await form.getByRole('button', { name: 'Create market' }).click();
    await poll(() => fieldErrorOf(page, 'New market', 'Code')).toMatch(/another market/);

    // Edit: a step finer than the yen is refused beside the step; then the rule changes.
    await page.getByRole('button', { name: 'Edit Japan' }).click();
    const edit = page.getByRole('form', { name: 'Edit market Japan' });
    expect(await edit.getByRole('checkbox', { name: 'Sandbox (test payments)' }).isChecked()).toBe(true);
    await edit.getByLabel('Rounding step').fill('0.5');
    await edit.getByRole('button', { name: 'Save market' }).click();
    await poll(() => fieldErrorOf(page, 'Edit market Japan', 'Rounding step')).toBeTruthy();
    await edit.getByLabel('Rounding step').fill('1000');
    await edit.getByLabel('Price ending').fill('980');
    await edit.getByLabel('Rounding direction').selectOption('up');
    await poll(() => edit.getByText(/^Example:/).textContent()).toMatch(/3980 JPY/);
    await edit.getByRole('button', { name: 'Save market' }).click();
    await poll(() => statusText(page)).toContain('Market Japan (jp) saved.');

    // The default market: its currency and rule follow the environment and cannot be edited here.
    await page.getByRole('button', { name: 'Edit International' }).click();
    const store = page.getByRole('form', { name: 'Edit market International' });
    expect(await store.getByLabel('Currency', { exact: true }).isDisabled()).toBe(true);
    expect(await store.getByLabel('Exchange rate').isDisabled()).toBe(true);
    await store.getByLabel('Market name').fill('United States');
    await store.getByRole('button', { name: 'Save market' }).click();
    await poll(() => statusText(page)).toContain('Market United States (default) saved.');
    const renamed = page.getByRole('form', { name: 'Edit market United States' });
    await renamed.getByLabel('Market name').fill('International');
    await renamed.getByRole('button', { name: 'Save market' }).click();
    await poll(() => statusText(page)).toContain('Market International (default) saved.');
    await page.getByRole('form', { name: 'Edit market International' }).getByRole('button', { name: 'Close' }).click();

    // Delete, after a confirmation.
    await row(/^jp/).getByRole('button', { name: 'Delete' }).click();
    await row(/^jp/).getByRole('button', { name: 'Yes, delete' }).click();
    await poll(() => statusText(page)).toContain('Market Japan deleted.');
    await poll(() => row(/^jp/).count()).toBe(0);

    const narrow = await signedIn(running.browser, '/admin/markets', { viewport: phone });
    await narrow.getByRole('button', { name: 'Edit Europe' }).click();
    await narrow
      .getByRole('form', { name: 'Edit market Europe' })
      .getByText(/^Example:/)
      .waitFor();
    expect(await nothingCutOff(narrow, phone.width)).toBe(true);
    expect(running.browser.errors).toEqual([]);
  });

  it("lists, adds, changes and removes a variant's prices per currency, each error beside its field", async () => {
    const page = await signedIn(running.browser, '/admin/products/1');
    await page.getByRole('button', { name: 'Edit Small' }).click();
    const prices = page.getByRole('form', { name: 'Prices in other currencies' });
    // The demo's explicit EUR price, and what the Europe market charges with it.
    await poll(() => prices.getByLabel('Price (EUR)', { exact: true }).inputValue()).toBe('23.00');
    await poll(() => prices.getByText(/^Europe \(eu\):/).textContent()).toMatch(/23\.00 EUR \(explicit\)/);

    await prices.getByRole('button', { name: 'Add a price in another currency' }).click();
    await prices.getByLabel('Currency').nth(1).fill('gbp');
    await prices.getByLabel('Price (GBP)', { exact: true }).fill('19.505');
    await prices.getByLabel('Compare-at price (GBP)', { exact: true }).fill('22');
    await prices.getByLabel('Compare-at price (EUR)', { exact: true }).fill('26.00');
    await prices.getByRole('button', { name: 'Save prices' }).click();
    const errorBeside = (label: string) =>
      prices
        .locator('.field', { has: page.getByLabel(label, { exact: true }) })
        .locator('.field-error')
        .textContent();
    await poll(() => errorBeside('Price (GBP)')).toMatch(/decimal places/);
    await prices.getByLabel('Price (GBP)', { exact: true }).fill('19.50');
    await prices.getByRole('button', { name: 'Save prices' }).click();
    await poll(() => statusText(page)).toContain('Prices of Small saved: 23.00 EUR, 19.50 GBP.');
    const token = await signedInToken(page);
    const stored = await fetch(`${running.shop.baseUrl}/product/dashboard/api/variants/1/prices/`, {
      headers: { authorization: `Bearer ${token}` },
    }).then((r) => r.json());
    expect(stored).toMatchObject([
      { currency: 'EUR', price: '23.00', compare_at_price: '26.00' },
      { currency: 'GBP', price: '19.50', compare_at_price: '22.00' },
    ]);

    // Removing the EUR price: Europe converts the 25.00 USD price at 0.92 (23.00), rounded to x.99: 22.99.
    await prices.getByRole('button', { name: 'Remove EUR' }).click();
    await prices.getByRole('button', { name: 'Save prices' }).click();
    await poll(() => statusText(page)).toContain('Prices of Small saved: 19.50 GBP.');
    await poll(() => prices.getByText(/^Europe \(eu\):/).textContent()).toMatch(/22\.99 EUR \(converted at 0\.92\)/);
    // Put back as the demo had it, for the tests that follow.
    await prices.getByRole('button', { name: 'Remove GBP' }).click();
    await prices.getByRole('button', { name: 'Add a price in another currency' }).click();
    await prices.getByLabel('Currency').fill('EUR');
    await prices.getByLabel('Price (EUR)', { exact: true }).fill('23.00');
    await prices.getByRole('button', { name: 'Save prices' }).click();
    await poll(() => statusText(page)).toContain('Prices of Small saved: 23.00 EUR.');

    const narrow = await signedIn(running.browser, '/admin/products/1', { viewport: phone });
    await narrow.getByRole('button', { name: 'Edit Small' }).click();
    await narrow.getByLabel('Price (EUR)', { exact: true }).waitFor();
    expect(await nothingCutOff(narrow, phone.width)).toBe(true);
    expect(running.browser.errors).toEqual([]);
  });

  it("shows each order's total in its own currency in the orders list", async () => {
    const body = { ...DEMO_ORDER, shipping_address: { ...DEMO_ORDER.shipping_address, email: 'markets@example.com' } };
    const placed = await callApi(running.shop, '/order/storefront/api/create/', { body });
    const page = await signedIn(running.browser, '/admin/orders?find=markets@example.com');
    const row = page.getByRole('row', { name: /markets@example\.com/ });
    await poll(() => row.count()).toBe(1);
    expect(placed.currency).toMatch(/^[A-Z]{3}$/);
    expect(await row.getByRole('cell').last().textContent()).toBe(`${String(placed.total)} ${String(placed.currency)}`);
    expect(running.browser.errors).toEqual([]);
  });

  it('lets a shopper choose a market in the header, remembers it and sends it with every call', async () => {
    const page = await running.browser.newPage();
    const headers = marketHeaders(page);
    await page.goto('/');
    const choice = page.getByLabel('Shop in');
    const markets = (await getJson(running.shop, '/market/storefront/api/markets/')) as unknown as {
      name: string;
      currency: string;
    }[];
    expect(markets.map((m) => `${m.name} · ${m.currency}`)).toEqual(['International · USD', 'Europe · EUR']);
    await poll(() => choice.locator('option').allTextContents()).toEqual(['International · USD', 'Europe · EUR']);
    expect(await choice.inputValue()).toBe('default');
    await page.getByRole('link', { name: 'Organic Cotton T-Shirt' }).waitFor();
    // Nothing chosen yet: the service decides, no header is sent.
    expect(headers.filter((h) => h !== undefined)).toEqual([]);

    await choice.selectOption({ label: 'Europe · EUR' });
    expect(await page.evaluate("localStorage.getItem('storefront.market')")).toBe('eu');
    // The catalog is read again in the market chosen, with its header, and shown in the currency it answers in.
    await poll(() => headers.filter((h) => h === 'eu').length).toBeGreaterThan(0);
    const catalog = (await getJson(running.shop, '/product/storefront/api/products/?limit=24', 'eu')) as {
      items: { name: string; currency?: string; variants: { price: string }[] }[];
    };
    // An answer without a currency of its own is in the store's (GET /).
    const store = await getJson(running.shop, '/');
    const mug = catalog.items.find((p) => p.name === 'Ceramic Coffee Mug');
    const currency = mug?.currency ?? String(store.currency);
    await poll(() => page.locator('.card', { hasText: 'Ceramic Coffee Mug' }).textContent()).toContain(
      `${mug?.variants[0]?.price} ${currency}`,
    );

    // Remembered: a reload (a new page of this visitor) keeps the market and sends it.
    headers.length = 0;
    await page.reload();
    await poll(() => page.getByLabel('Shop in').inputValue()).toBe('eu');
    await page.getByRole('link', { name: 'Organic Cotton T-Shirt' }).click();
    await page.getByRole('heading', { name: 'Organic Cotton T-Shirt', level: 1 }).waitFor();
    expect(headers.length).toBeGreaterThan(0);
    expect(headers.every((h) => h === 'eu')).toBe(true);

    // The cart shows the currency its answer carries.
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await poll(() => page.getByRole('link', { name: 'Cart (1)' }).count()).toBe(1);
    const cartToken = String(await page.evaluate("localStorage.getItem('storefront.cartToken')"));
    const cart = await fetch(`${running.shop.baseUrl}/cart/storefront/api/carts/`, {
      headers: { 'x-cart-token': cartToken, 'x-market': 'eu' },
    }).then((r) => r.json() as Promise<{ subtotal: string; currency: string }>);
    await page.goto('/cart');
    await poll(() => page.getByText(`${cart.subtotal} ${cart.currency}`).count()).toBeGreaterThan(0);
    expect(headers.every((h) => h === 'eu')).toBe(true);
    expect(running.browser.errors).toEqual([]);
  });

  it('shows the currency an answer carries, not the store currency', async () => {
    // The product's answer made to say EUR (as a market-priced catalog will): the page shows what it says.
    const page = await running.browser.newPage();
    // Both of its addresses: by id, and by the handle the page's address is then replaced with.
    await page.route(/\/product\/storefront\/api\/products\/(1|by-handle\/[^/?]+)\/(\?.*)?$/, async (route) => {
      const answer = await route.fetch();
      const product = (await answer.json()) as { variants: { price: string }[] };
      const priced = { ...product, currency: 'EUR', variants: product.variants.map((v) => ({ ...v, price: '23.00' })) };
      await route.fulfill({ response: answer, json: priced });
    });
    await page.goto('/products/1');
    await poll(() => page.getByRole('radio', { name: /Small/ }).count()).toBe(1);
    await poll(() => page.locator('label.choice', { hasText: 'Small' }).textContent()).toContain('23.00 EUR');
    expect(running.browser.errors).toEqual([]);
  });

  it("follows the shipping country at checkout, and shows the estimate's own currency", async () => {
    const page = await running.browser.newPage({ viewport: phone });
    const headers = marketHeaders(page);
    await page.goto('/products/2');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await poll(() => page.getByRole('link', { name: 'Cart (1)' }).count()).toBe(1);
    await page.goto('/checkout');
    // No country yet: shipping and tax are not shown as 0.00 but as what the address will decide.
    await poll(() => page.getByText('Calculated from your address').count()).toBe(2);
    await poll(() => page.locator('dt.grand').textContent()).toBe('Total so far');
    await page.getByLabel('Email').fill('eu-shopper@example.com');
    // The estimates the shop asks for in the eu market (the live one, and one per shipping method for its fee).
    const estimates: { total: string; currency: string }[] = [];
    page.on('response', async (res) => {
      const eu = res.request().headers()['x-market'] === 'eu';
      if (res.url().endsWith('/order/storefront/api/estimate/') && eu && res.ok()) estimates.push(await res.json());
    });
    await page.getByLabel('Country', { exact: true }).selectOption('DE');
    // Germany is the eu market's: the shop now shops there, says so, remembers it and sends it.
    await poll(() => statusText(page)).toContain('Shipping to Germany: you now shop in Europe, in EUR.');
    await poll(() => page.getByLabel('Shop in').inputValue()).toBe('eu');
    expect(await page.evaluate("localStorage.getItem('storefront.market')")).toBe('eu');
    // The summary's total is the latest estimate's, in the currency that estimate carries.
    const total = page.locator('dt.grand + dd');
    await poll(async () => {
      const last = estimates.at(-1);
      return last !== undefined && (await total.textContent())?.includes(`${last.total} ${last.currency}`);
    }).toBe(true);
    expect(headers).toContain('eu');
    // Europe's prices include VAT: its tax is said to be in the total, not listed as added to it.
    await poll(() => page.getByText('Tax included in the total').count()).toBe(1);
    expect(await page.locator('dl.totals dt', { hasText: /^Tax$/ }).count()).toBe(0);
    expect(await nothingCutOff(page, phone.width)).toBe(true);

    // Back to a US address: the default market serves it.
    await page.getByLabel('Country', { exact: true }).selectOption('US');
    await poll(() => page.getByLabel('Shop in').inputValue()).toBe('default');
    await poll(() => statusText(page)).toContain('Shipping to United States: you now shop in International, in USD.');
    await poll(() => page.locator('dl.totals dt', { hasText: /^Tax$/ }).count()).toBe(1);
    expect(await page.getByText('Tax included in the total').count()).toBe(0);
    expect(running.browser.errors).toEqual([]);
  });

  it('gives a rate and a promotion amounts in other currencies on a phone, each error beside its field', async () => {
    const shipping = await signedIn(running.browser, '/admin/shipping', { viewport: phone });
    await shipping
      .getByRole('button', { name: /^Edit shipping rate \d+ \(DE/ })
      .first()
      .click();
    const edit = shipping.getByRole('form', { name: /^Edit shipping rate/ });
    await edit.getByRole('button', { name: 'Add a currency' }).click();
    await edit.getByLabel('Currency', { exact: true }).fill('eur');
    await edit.getByLabel('Base rate (EUR)', { exact: true }).fill('5.505');
    await edit.getByRole('button', { name: 'Save shipping rate' }).click();
    const base = edit.locator('.field', { has: shipping.getByLabel('Base rate (EUR)', { exact: true }) });
    await poll(() => base.locator('.field-error').textContent()).toMatch(/EUR/);
    await edit.getByLabel('Base rate (EUR)', { exact: true }).fill('5.50');
    await edit.getByRole('button', { name: 'Save shipping rate' }).click();
    await poll(() => shipping.getByRole('row', { name: /DE.*5\.50 EUR/ }).count()).toBe(1);
    // The page's tables scroll inside their own frame (as before); the page itself does not scroll sideways.
    expect(await scrollsSideways(shipping)).toBe(false);

    const page = await signedIn(running.browser, '/admin/promotions/new', { viewport: phone });
    await page.getByLabel('Name').fill('Shipping 2 off, 1.80 in euros');
    await page.getByLabel('Discount').selectOption({ label: 'Amount off shipping' });
    await page.getByLabel(/^Amount off shipping/).fill('2.00');
    await page.getByRole('button', { name: 'Add an amount in another currency' }).click();
    await page.getByLabel('Currency', { exact: true }).fill('EUR');
    await page.getByLabel('Amount (EUR)', { exact: true }).fill('1.805');
    await page.getByRole('button', { name: 'Create promotion' }).click();
    const currency = page.locator('.field', { has: page.getByLabel('Currency', { exact: true }) });
    await poll(() => currency.locator('.field-error').textContent()).toMatch(/EUR/);
    expect(await nothingCutOff(page, phone.width)).toBe(true);
    await page.getByLabel('Amount (EUR)', { exact: true }).fill('1.80');
    await page.getByRole('button', { name: 'Create promotion' }).click();
    await poll(() => statusText(page)).toContain('Promotion Shipping 2 off, 1.80 in euros created.');
    await page.goto('/admin/promotions');
    await poll(() => page.getByRole('row', { name: /Amount off shipping: 2\.00 USD \/ 1\.80 EUR/ }).count()).toBe(1);
    expect(running.browser.errors).toEqual([]);
  });

  it('fits the header and its selector on a phone', async () => {
    const page = await running.browser.newPage({ viewport: phone });
    await page.goto('/');
    await page.getByLabel('Shop in').waitFor();
    await page.getByRole('link', { name: 'Organic Cotton T-Shirt' }).waitFor();
    expect(await nothingCutOff(page, phone.width)).toBe(true);
    const box = await page.getByLabel('Shop in').boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= phone.width).toBe(true);
    expect(running.browser.errors).toEqual([]);
  });
});

/** The dashboard's access token, as the page keeps it. */
async function signedInToken(page: Page): Promise<string> {
  const session = String(await page.evaluate("localStorage.getItem('dashboard.session')"));
  return (JSON.parse(session) as { access: string }).access;
}

// What the browser tests share: the service as `npm start` runs it (dist/main.js with the built web apps and the demo
// store) on a database of its own, a headless Chromium whose pages fail the test on a console error, a guest's order
// placed and paid through the API, and the demo admin signed in to the dashboard.
import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { hiddenFormFields } from '../browser.js';
import { ADMIN, type Shop, startShop } from '../shop-process.js';

export { ADMIN, type Shop, startShop };

/** Debian's Chromium (`apt-get install chromium`), or CHROMIUM_PATH. */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((p): p is string => p !== undefined && p !== '' && existsSync(p));
  if (found === undefined) {
    throw new Error('Chromium not found: install it (`apt-get install -y chromium`) or set CHROMIUM_PATH');
  }
  return found;
}

export interface BrowserSession {
  browser: Browser;
  /** A new context (its own storage, as a new visitor) at 1280 × 800, or `{ width: 375, height: 740 }`. */
  newPage(options?: { viewport?: { width: number; height: number } }): Promise<Page>;
  /** Console errors and uncaught page errors seen so far, on every page; a test ends expecting none. */
  errors: string[];
  close(): Promise<void>;
}

export async function launchBrowser(baseUrl: string): Promise<BrowserSession> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    // Root in a container has no user namespace for Chromium's sandbox.
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
  const errors: string[] = [];
  const contexts: BrowserContext[] = [];
  return {
    browser,
    errors,
    async newPage(options = {}) {
      const context = await browser.newContext({
        baseURL: baseUrl,
        viewport: options.viewport ?? { width: 1280, height: 800 },
      });
      contexts.push(context);
      const page = await context.newPage();
      page.on('console', (message) => {
        // A 4xx the app shows in words is expected; the browser still logs the failed fetch as an error.
        if (
          message.type() === 'error'
          && !/Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())
        ) {
          errors.push(`${page.url()}: ${message.text()}`);
        }
      });
      page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
      return page;
    },
    async close() {
      for (const context of contexts) await context.close();
      await browser.close();
    },
  };
}

/**
 * A shop and a headless Chromium on it for the tests of one `describe`: started before them, closed after them. Read
 * `running.shop` and `running.browser` inside the tests (before the first, neither exists yet). `env` may be a
 * function, read when the shop starts: for what an earlier `beforeAll` starts (an SMTP sink's URL).
 */
export function shopAndBrowser(env: Record<string, string> | (() => Record<string, string>) = {}): {
  readonly shop: Shop;
  readonly browser: BrowserSession;
} {
  let shop: Shop | undefined;
  let browser: BrowserSession | undefined;
  beforeAll(async () => {
    shop = await startShop(typeof env === 'function' ? env() : env);
    browser = await launchBrowser(shop.baseUrl);
  });
  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
  });
  const started = <T>(what: T | undefined): T => {
    if (what === undefined) throw new Error('the shop is not started yet: read it inside a test');
    return what;
  };
  return {
    get shop() {
      return started(shop);
    },
    get browser() {
      return started(browser);
    },
  };
}

/** Whether the page is wider than its viewport (a horizontal scroll bar at 375 px is a defect). */
export async function scrollsSideways(page: Page): Promise<boolean> {
  // A string: this project's Node typings have no DOM.
  return (await page.evaluate('document.documentElement.scrollWidth > document.documentElement.clientWidth')) === true;
}

/**
 * Whether nothing on the page is cut off at a viewport `width` wide: no sideways scroll, and no visible element
 * reaching past the right edge (what is there for screen readers only, clipped to nothing, aside).
 */
export async function nothingCutOff(page: Page, width: number): Promise<boolean> {
  const overflowing = await page.evaluate(
    `[...document.querySelectorAll('main *, dialog[open] *')]
      .filter((e) => e.closest('thead, .visually-hidden') === null && e.checkVisibility())
      .filter((e) => e.getBoundingClientRect().right > ${width} + 1)
      .map((e) => e.tagName + ' ' + (e.textContent ?? '').slice(0, 40))`,
  );
  expect(overflowing).toEqual([]);
  return !(await scrollsSideways(page));
}

/** The demo order of docs/api.md: 2 T-shirts and a mug with SAVE10, shipped to California (67.52 USD). */
export const DEMO_ORDER = {
  variants: [
    { alias: 'demo-tshirt-s', quantity: 2 },
    { alias: 'demo-mug', quantity: 1 },
  ],
  promocode: 'SAVE10',
  shipping_address: {
    country: 'US',
    state: 'CA',
    city: 'Los Angeles',
    postal_code: '90001',
    street_address: '1 Main St',
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
  },
  shipping_method_id: 1,
};

/** An order placed through the API: what its guest keeps. */
export interface PlacedOrder {
  alias: string;
  token: string;
  total: string;
}

/** POSTs a JSON body (`{}` unless given) to the shop's API; answers the parsed body, or throws on a 4xx or 5xx. */
export async function callApi(
  shop: Shop,
  path: string,
  init: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<Record<string, unknown>> {
  const res = await fetch(`${shop.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...init.headers },
    body: JSON.stringify(init.body ?? {}),
    redirect: 'manual',
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${path}: ${res.status} ${text}`);
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

/** A guest places the demo order through the API, as a storefront would, with this email. */
export async function placeDemoOrder(shop: Shop, email = DEMO_ORDER.shipping_address.email): Promise<PlacedOrder> {
  const body = { ...DEMO_ORDER, shipping_address: { ...DEMO_ORDER.shipping_address, email } };
  const placed = await callApi(shop, '/order/storefront/api/create/', { body });
  return { alias: String(placed.order_alias), token: String(placed.order_token), total: String(placed.total) };
}

/** The guest starts a payment with `plugin`; answers the URL the payer is sent to. */
export async function startPayment(
  shop: Shop,
  order: PlacedOrder,
  plugin: 'sandbox' | 'cash_on_delivery',
): Promise<string> {
  const started = await callApi(shop, `/payment/storefront/api/start-payment/${plugin}/`, {
    headers: { 'x-order-token': order.token },
    body: { order_alias: order.alias },
  });
  return String(started.url);
}

/**
 * The guest pays (or, with `authorize`, only authorizes: nothing is taken yet) on the sandbox's checkout page, as
 * test/payments-sandbox.test.ts does.
 */
export async function payWithSandbox(
  shop: Shop,
  order: PlacedOrder,
  decision: 'pay' | 'authorize' = 'pay',
): Promise<void> {
  const checkout = await fetch(await startPayment(shop, order, 'sandbox'));
  const fields = hiddenFormFields(await checkout.text());
  fields.set('decision', decision);
  const answered = await fetch(`${shop.baseUrl}/payment/sandbox/checkout/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: fields.toString(),
    redirect: 'manual',
  });
  if (answered.status !== 303) throw new Error(`sandbox ${decision}: ${answered.status} ${await answered.text()}`);
}

/** Every dashboard page but its home: each section, an order's page, a product's and a promotion's. */
export function dashboardPages(orderAlias: string): string[] {
  return [
    '/admin/orders',
    `/admin/orders/${orderAlias}`,
    '/admin/returns',
    '/admin/returns/reasons',
    '/admin/products',
    '/admin/products/1',
    '/admin/categories',
    '/admin/collections',
    '/admin/tax',
    '/admin/shipping',
    '/admin/markets',
    '/admin/promotions',
    '/admin/promotions/new',
    '/admin/promotions/1',
    '/admin/webhooks',
  ];
}

/**
 * Signs the demo admin in on a new page (a new visitor) at `path` of the dashboard, and waits for "Sign out" (within
 * `poll`'s timeout, expect.poll's default unless given).
 */
export async function signedIn(
  browser: BrowserSession,
  path: string,
  options: { viewport?: { width: number; height: number }; poll?: { timeout: number } } = {},
): Promise<Page> {
  const page = await browser.newPage(options.viewport ? { viewport: options.viewport } : {});
  await page.goto(path);
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => page.getByRole('button', { name: 'Sign out' }).count(), options.poll).toBe(1);
  return page;
}

/** The guest's order page in a new browser page that kept the order's token (as placing it would). */
export async function guestOrderPage(
  browser: BrowserSession,
  order: PlacedOrder,
  viewport: { width: number; height: number },
): Promise<Page> {
  const page = await browser.newPage({ viewport });
  await page.goto('/');
  await page.evaluate(
    `localStorage.setItem('storefront.orderTokens', ${JSON.stringify(JSON.stringify([[order.alias, order.token]]))})`,
  );
  await page.goto(`/orders/${order.alias}`);
  return page;
}

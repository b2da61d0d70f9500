// `npm run screenshots`: PNGs of the web apps' main pages in docs/screenshots/, taken in Debian's Chromium from the
// built service on a fresh demo store (test/browser/harness.ts, as the browser tests run it). A page that is not
// there (no h1 in time, or the app's "not found" page) is skipped and named at the end; `--strict` fails then.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { ADMIN, type BrowserSession, launchBrowser, type Shop, startShop } from '../test/browser/harness.js';

const OUT = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
/** How long a page has to show its h1. */
const HEADING_MS = 15_000;
const CUSTOMER = { email: 'shopper@example.com', password: 'screenshots password', first_name: 'Ada' };
const ADDRESS = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  street_address: '1 Main St',
  city: 'Los Angeles',
  postal_code: '90001',
  state: 'CA',
  country: 'US',
  email: CUSTOMER.email,
};

interface Session {
  user: { id: number; email: string; first_name: string; last_name: string; role: string };
  access: string;
  refresh: string;
}

const written: string[] = [];
const skipped: string[] = [];

/** Calls the API of `shop` and returns its JSON, or throws with the answer. */
async function call<T>(shop: Shop, request: { method: string; path: string; token?: string; body?: unknown }) {
  const res = await fetch(`${shop.baseUrl}${request.path}`, {
    method: request.method,
    headers: {
      ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(request.token === undefined ? {} : { authorization: `Bearer ${request.token}` }),
    },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${request.method} ${request.path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** Waits for the page's h1; undefined if there is none in time or it is the app's "not found" page. */
async function heading(page: Page): Promise<string | undefined> {
  const h1 = page.locator('h1').first();
  try {
    await h1.waitFor({ state: 'visible', timeout: HEADING_MS });
  } catch {
    return undefined;
  }
  const text = (await h1.textContent())?.trim() ?? '';
  return /not found/i.test(text) ? undefined : text;
}

/** Lets the page finish loading what it shows (no request in flight, no "Loading…" left), within a few seconds. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => {});
  const loading = page.getByText('Loading…');
  for (let i = 0; i < 50 && (await loading.count()) > 0; i++) await page.waitForTimeout(100);
}

/** Waits for the sign-in to take (a "Sign out" button shows), within a few seconds. */
async function signedIn(page: Page): Promise<void> {
  await page
    .getByRole('button', { name: 'Sign out' })
    .first()
    .waitFor({ timeout: HEADING_MS })
    .catch(() => {});
}

/**
 * Opens `url` (unless already there) and writes docs/screenshots/<name>.png once its h1 shows (and is not `unwanted`:
 * a sign-in page where the page itself was expected).
 */
async function shoot(page: Page, shot: { name: string; url?: string; unwanted?: RegExp }): Promise<boolean> {
  const { name, url, unwanted } = shot;
  try {
    if (url !== undefined) await page.goto(url);
    const title = await heading(page);
    if (title === undefined || unwanted?.test(title)) {
      skipped.push(`${name} (${page.url()}: ${title === undefined ? 'no page with an h1 there yet' : `"${title}"`})`);
      return false;
    }
    await settle(page);
    await page.screenshot({ path: `${OUT}${name}.png`, fullPage: true });
    written.push(`${name}.png (${new URL(page.url()).pathname}: "${title}")`);
    return true;
  } catch (err) {
    skipped.push(`${name} (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
    return false;
  }
}

/**
 * Fills the field labelled `label` if the page has exactly one (a select gets the option of that value or label).
 * Only form controls count: getByLabel also finds a section labelled by its heading (checkout's "Promo code").
 */
async function fillIfThere(page: Page, label: string | RegExp, value: string): Promise<boolean> {
  const field = page.getByLabel(label).and(page.locator('input, select, textarea'));
  if ((await field.count()) !== 1) return false;
  const tag = await field.evaluate('(element) => element.tagName');
  if (tag === 'SELECT') await field.selectOption([{ value }, { label: value }]).catch(() => {});
  else await field.fill(value);
  return true;
}

/** Signs the customer in to the storefront: through its sign-in page, else by the session the app keeps. */
async function signInCustomer(page: Page, session: Session): Promise<void> {
  await page.goto('/sign-in');
  if ((await heading(page)) !== undefined && (await page.getByLabel('Password').count()) === 1) {
    await page.getByLabel('Email').fill(CUSTOMER.email);
    await page.getByLabel('Password').fill(CUSTOMER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await signedIn(page);
    return;
  }
  // The key web/storefront/context.ts keeps the session under.
  await page.evaluate(`localStorage.setItem('storefront.session', ${JSON.stringify(JSON.stringify(session))})`);
}

async function storefront(shop: Shop, browser: BrowserSession): Promise<{ alias: string; session: Session }> {
  const guest = await browser.newPage();
  await shoot(guest, { name: 'storefront-products', url: '/' });
  const mobile = await browser.newPage({ viewport: { width: 375, height: 740 } });
  await shoot(mobile, { name: 'storefront-products-375px', url: '/' });
  // The header's country/currency selector at 390 px, Europe chosen.
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await phone.goto('/');
  await phone
    .getByLabel('Shop in')
    .selectOption('eu', { timeout: HEADING_MS })
    .catch(() => {});
  await shoot(phone, { name: 'storefront-market-390px' });

  const products = await call<{ items: { id: number; name: string; variants: { id: number; alias: string }[] }[] }>(
    shop,
    { method: 'GET', path: '/product/storefront/api/products/?limit=100' },
  );
  const variant = (alias: string) => products.items.flatMap((p) => p.variants).find((v) => v.alias === alias)?.id;
  const tshirt = products.items.find((p) => p.variants.some((v) => v.alias === 'demo-tshirt-s'));
  await shoot(guest, { name: 'storefront-product', url: `/products/${tshirt?.id ?? 1}` });

  // A customer who has ordered and paid, and has two more things in the cart.
  const session = await call<Session>(shop, { method: 'POST', path: '/user/storefront/api/signup/', body: CUSTOMER });
  const token = session.access;
  await call(shop, {
    method: 'POST',
    path: '/user/storefront/api/addresses/',
    token,
    body: { ...ADDRESS, is_default: true },
  });
  const order = await call<{ order_alias: string }>(shop, {
    method: 'POST',
    path: '/order/storefront/api/create/',
    token,
    body: {
      variants: [{ alias: 'demo-tshirt-s', quantity: 2 }, { alias: 'demo-mug' }],
      shipping_address: ADDRESS,
      shipping_method_id: 1,
      promocode: 'SAVE10',
    },
  });
  for (const [alias, quantity] of [
    ['demo-beans-250', 2],
    ['demo-notebook', 1],
  ] as const) {
    const id = variant(alias);
    if (id !== undefined) {
      await call(shop, {
        method: 'POST',
        path: '/cart/storefront/api/carts/add/',
        token,
        body: { product_variant_id: id, quantity },
      });
    }
  }

  const customer = await browser.newPage();
  await customer.goto('/');
  await signInCustomer(customer, session);
  await shoot(customer, { name: 'storefront-cart', url: '/cart', unwanted: /sign in/i });
  await customer.goto('/checkout');
  if ((await heading(customer)) !== undefined) {
    // The h1 shows before the cart, the stored addresses and the shipping methods have loaded.
    await settle(customer);
    await fillIfThere(customer, /^Email/, CUSTOMER.email);
    for (const [label, value] of Object.entries({
      'First name': ADDRESS.first_name,
      'Last name': ADDRESS.last_name,
      'Street address': ADDRESS.street_address,
      City: ADDRESS.city,
      'Postal code': ADDRESS.postal_code,
      State: ADDRESS.state,
      Country: ADDRESS.country,
    })) {
      await fillIfThere(customer, new RegExp(`^${label}`), value);
    }
    const standard = customer.getByLabel(/Standard/);
    if ((await standard.count()) === 1) await standard.check().catch(() => {});
    // A code counts once applied: then the estimate is asked again and names the promotion with its code.
    if (await fillIfThere(customer, /^Promo code/i, 'SAVE10')) {
      await customer.getByRole('button', { name: 'Apply' }).click();
      await customer
        .getByText('(code SAVE10)')
        .first()
        .waitFor({ timeout: 10_000 })
        .catch(() => {});
    }
  }
  await shoot(customer, { name: 'storefront-checkout' });

  // Paid through the sandbox's own checkout page, back to the confirmation page.
  const payment = await call<{ url: string }>(shop, {
    method: 'POST',
    path: '/payment/storefront/api/start-payment/sandbox/',
    token,
    body: { order_alias: order.order_alias, return_url: `${shop.baseUrl}/orders/${order.order_alias}` },
  });
  await customer.goto(payment.url);
  await customer.getByRole('button', { name: 'Pay' }).click();
  await customer.waitForURL(/\/orders\//, { timeout: HEADING_MS }).catch(() => {});
  if ((await heading(customer)) !== undefined) {
    // The page follows the order to "Paid" (SPEC section 12): give it the few seconds that takes.
    await customer
      .getByText(/\bPaid\b/)
      .first()
      .waitFor({ timeout: 10_000 })
      .catch(() => {});
  }
  await shoot(customer, { name: 'storefront-confirmation' });
  return { alias: order.order_alias, session };
}

async function dashboard(browser: BrowserSession, orderAlias: string): Promise<void> {
  const admin = await browser.newPage();
  await shoot(admin, { name: 'dashboard-sign-in', url: '/admin/' });
  if ((await admin.getByLabel('Password').count()) === 1) {
    await admin.getByLabel('Email').fill(ADMIN.email);
    await admin.getByLabel('Password').fill(ADMIN.password);
    await admin.getByRole('button', { name: 'Sign in' }).click();
    await signedIn(admin);
  }
  const signInPage = /sign in/i;
  await shoot(admin, { name: 'dashboard-orders', url: '/admin/orders', unwanted: signInPage });
  await shoot(admin, { name: 'dashboard-order', url: `/admin/orders/${orderAlias}`, unwanted: signInPage });
  await shoot(admin, { name: 'dashboard-promotions', url: '/admin/promotions', unwanted: signInPage });
  // The demo's second market open in its form (the live rounding example), and a variant's prices per currency.
  await admin.goto('/admin/markets');
  if ((await heading(admin)) !== undefined) {
    await admin
      .getByRole('button', { name: 'Edit Europe' })
      .click({ timeout: HEADING_MS })
      .catch(() => {});
  }
  await shoot(admin, { name: 'dashboard-markets', unwanted: signInPage });
  await admin.goto('/admin/products/1');
  if ((await heading(admin)) !== undefined) {
    await admin
      .getByRole('button', { name: 'Edit Small' })
      .click({ timeout: HEADING_MS })
      .catch(() => {});
    await settle(admin);
  }
  await shoot(admin, { name: 'dashboard-variant-prices', unwanted: signInPage });
}

/**
 * Returns: the order shipped, the customer asks to return a T-shirt from the order page (the Returns section with the
 * form for what is left); the admin's order page shows it with Receive, Reject and Cancel, and the store's list.
 */
async function returns(shop: Shop, browser: BrowserSession, placed: { alias: string; session: Session }) {
  const { alias, session } = placed;
  const admin = await call<Session>(shop, { method: 'POST', path: '/user/storefront/api/login/', body: ADMIN });
  const fulfillments = `/order/dashboard/api/orders/${alias}/fulfillments/`;
  const parcel = await call<{ id: number }>(shop, {
    method: 'POST',
    path: fulfillments,
    token: admin.access,
    body: {},
  });
  await call(shop, { method: 'POST', path: `${fulfillments}${parcel.id}/ship/`, token: admin.access, body: {} });
  await call(shop, {
    method: 'POST',
    path: `/order/storefront/api/orders/${alias}/returns/`,
    token: session.access,
    body: { lines: [{ alias: 'demo-tshirt-s', quantity: 1, reason: 'size_fit' }], note: 'Too small' },
  });
  const customer = await browser.newPage();
  await customer.goto('/');
  await signInCustomer(customer, session);
  await shoot(customer, { name: 'storefront-order-returns', url: `/account/orders/${alias}`, unwanted: /sign in/i });
  const page = await browser.newPage();
  await page.goto('/admin/');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await signedIn(page);
  await shoot(page, { name: 'dashboard-order-returns', url: `/admin/orders/${alias}`, unwanted: /sign in/i });
  await shoot(page, { name: 'dashboard-returns', url: '/admin/returns', unwanted: /sign in/i });
}

mkdirSync(OUT, { recursive: true });
const shop = await startShop();
let browser: BrowserSession | undefined;
try {
  browser = await launchBrowser(shop.baseUrl);
  const placed = await storefront(shop, browser);
  await dashboard(browser, placed.alias);
  await returns(shop, browser, placed);
} finally {
  await browser?.close();
  await shop.stop();
}
console.log(`wrote ${written.length} screenshot(s) to docs/screenshots/:\n  ${written.join('\n  ')}`);
if (skipped.length > 0) console.log(`skipped ${skipped.length}:\n  ${skipped.join('\n  ')}`);
if (browser?.errors.length) console.log(`console errors on the way:\n  ${browser.errors.join('\n  ')}`);
if (process.argv.includes('--strict') && skipped.length > 0) process.exitCode = 1;

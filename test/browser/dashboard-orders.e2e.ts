// The dashboard's orders and webhooks, driven in Chromium: an admin finds an order a guest placed and paid through the
// API, refunds part of it through the refund dialog, moves orders through their statuses, cancels a paid one and
// refunds it in one action, and watches a webhook endpoint's deliveries.
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../webhook-receiver.js';
import {
  ADMIN,
  type BrowserSession,
  guestOrderPage,
  launchBrowser,
  payWithSandbox,
  placeDemoOrder,
  type Shop,
  scrollsSideways,
  signedIn,
  startPayment,
  startShop,
} from './harness.js';

/** The text of the error shown beside a labelled field (its aria-describedby), or null without one. */
async function errorBeside(page: Page, label: string): Promise<string | null> {
  const field = page.getByLabel(label, { exact: true });
  if ((await field.getAttribute('aria-invalid')) !== 'true') return null;
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
  return texts.find((t) => t !== null && /must|amount/i.test(t)) ?? null;
}

/** The text of the status messages shown (what the writes confirmed). */
const statusText = async (page: Page) => (await page.getByRole('status').allTextContents()).join(' ');

const headingText = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();

describe('the dashboard: orders and webhooks', () => {
  let shop: Shop;
  let browser: BrowserSession;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    // The receiver is on 127.0.0.1, which a store refuses to deliver to unless told (docs/webhooks.md, SSRF).
    shop = await startShop({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    browser = await launchBrowser(shop.baseUrl);
  });
  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
    await receiver?.close();
  });

  it('has a header with every section, the admin and "Sign out", at /admin without its slash too', async () => {
    const page = await signedIn(browser, '/admin');
    await expect.poll(() => headingText(page)).toBe('Dashboard');
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    for (const name of ['Orders', 'Products', 'Tax', 'Shipping', 'Promotions', 'Returns', 'Webhooks']) {
      expect(await nav.getByRole('link', { name, exact: true }).count()).toBe(1);
    }
    expect(await page.getByText(ADMIN.email).count()).toBe(1);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => headingText(page)).toBe('Sign in to the dashboard');
    expect(browser.errors).toEqual([]);
  });

  it('returns to the sign-in with a message when the API refuses the session, then back to the page', async () => {
    const page = await signedIn(browser, '/admin/');
    // A token the service never signed (as after a key change or a revocation), that does not look expired.
    const forged = `${btoa('{"alg":"HS256"}')}.${btoa(JSON.stringify({ exp: 4102444800 }))}.c2lnbmF0dXJl`;
    await page.evaluate(`(() => {
      const session = JSON.parse(localStorage.getItem('dashboard.session'));
      localStorage.setItem('dashboard.session', JSON.stringify({ ...session, access: ${JSON.stringify(forged)} }));
    })()`);
    await page.goto('/admin/orders');
    await expect.poll(() => headingText(page)).toBe('Sign in to the dashboard');
    expect(await statusText(page)).toMatch(/session has ended: sign in again/);
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => headingText(page)).toBe('Orders');
    expect(browser.errors).toEqual([]);
  });

  it('refunds part of a paid order after confirming: partially refunded, nothing due, the excess refused', async () => {
    const order = await placeDemoOrder(shop, 'refund.me@example.com');
    expect(order.total).toBe('67.52');
    await payWithSandbox(shop, order);

    const page = await signedIn(browser, '/admin/');
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Orders' }).click();
    await expect.poll(() => headingText(page)).toBe('Orders');
    await page.getByLabel('Customer email or order alias').fill('refund.me@example.com');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByRole('row').count()).toBe(2); // the heading row and the order
    expect(await page.getByRole('row').nth(1).textContent()).toMatch(/approved.*paid.*67\.52 USD/);
    await page.locator(`a[href="/admin/orders/${order.alias}"]`).click();
    await expect.poll(() => headingText(page)).toBe(`Order ${order.alias}`);
    const payments = page.locator('section', { has: page.getByRole('heading', { name: 'Payments' }) });
    const ledger = payments.locator('dl.ledger');
    await expect.poll(() => payments.textContent()).toMatch(/Balance due\s*0\.00 USD/);
    expect(await ledger.textContent()).toMatch(/Total\s*67\.52 USD\s*Captured\s*67\.52 USD\s*Refunded\s*0\.00 USD/);
    // Nothing is held, so nothing to capture or void.
    expect(await payments.getByRole('button', { name: /^(Capture|Void) payment/ }).count()).toBe(0);

    // The dialog starts from all that can be refunded; more than that is the API's 422, with the figure.
    await payments.getByRole('button', { name: /^Refund payment \d+$/ }).click();
    const dialog = page.getByRole('dialog', { name: /^Refund payment \d+$/ });
    await expect.poll(() => page.getByLabel('Amount to refund').inputValue()).toBe('67.52');
    await expect.poll(() => page.evaluate('document.activeElement?.name')).toBe('amount');
    await page.getByLabel('Amount to refund').fill('1000.00');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    expect(await dialog.textContent()).toMatch(/Refund 1000\.00 USD to the customer\?/);
    await dialog.getByRole('button', { name: 'Yes, refund 1000.00 USD' }).click();
    await expect.poll(() => errorBeside(page, 'Amount to refund')).toMatch(/must be at most 67\.52/);
    expect(await dialog.getByRole('alert').textContent()).toMatch(/At most 67\.52 USD can be refunded now/);

    await page.getByLabel('Amount to refund').fill('5.00');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    expect(await dialog.textContent()).toMatch(/Refund 5\.00 USD to the customer\?/);
    await dialog.getByRole('button', { name: 'Yes, refund 5.00 USD' }).click();
    await expect.poll(() => statusText(page)).toMatch(/Refunded 5\.00 USD of payment \d+: 5\.00 USD refunded in all/);
    await expect.poll(() => dialog.count()).toBe(0);
    await expect
      .poll(() => payments.getByRole('row').nth(1).textContent())
      .toMatch(/Sandbox.*partially refunded.*67\.52 USD.*0\.00 USD.*67\.52 USD.*5\.00 USD/);
    await expect.poll(() => payments.textContent()).toMatch(/Payment status: partially refunded/);
    // A goodwill refund is a credit: the customer owes nothing for it.
    expect(await payments.textContent()).toMatch(
      /Refunded\s*5\.00 USD\s*Credited[^0-9]*5\.00 USD\s*Balance due\s*0\.00 USD/,
    );
    const events = page.locator('section', { has: page.getByRole('heading', { name: 'Events' }) });
    await expect.poll(() => events.textContent()).toMatch(/payment\.refunded.*5\.00 USD refunded in all/);
    expect(browser.errors).toEqual([]);
  });

  it('moves an order through the statuses its state machine allows', async () => {
    const shipped = await placeDemoOrder(shop);
    await payWithSandbox(shop, shipped);
    const page = await signedIn(browser, `/admin/orders/${shipped.alias}`);
    await expect.poll(() => headingText(page)).toBe(`Order ${shipped.alias}`);
    const status = page.locator('section', { has: page.getByRole('heading', { name: 'Status' }) });
    const offered = () => status.getByRole('button').allTextContents();
    // Paid, so approved: it can go on to processing, or be cancelled with its refund; nothing else is offered.
    await expect.poll(offered).toEqual(['Start processing', 'Cancel and refund']);
    await status.getByRole('button', { name: 'Start processing' }).click();
    await expect.poll(() => statusText(page)).toMatch(/now processing/);
    // Nothing of it has shipped yet, so it can still be cancelled with its refund.
    await expect.poll(offered).toEqual(['Mark as shipped', 'Cancel and refund']);
    await status.getByRole('button', { name: 'Mark as shipped' }).click();
    await expect.poll(offered).toEqual(['Mark as delivered']);
    await status.getByRole('button', { name: 'Mark as delivered' }).click();
    await expect.poll(() => statusText(page)).toMatch(/now delivered/);
    await expect.poll(offered).toEqual([]);
    await expect.poll(() => status.textContent()).toMatch(/has no further status to move to/);
    expect(browser.errors).toEqual([]);
  });

  it('cancels and refunds a paid order in one action whose confirmation states the money', async () => {
    const paid = await placeDemoOrder(shop);
    await payWithSandbox(shop, paid);
    const page = await signedIn(browser, `/admin/orders/${paid.alias}`);
    await expect.poll(() => headingText(page)).toBe(`Order ${paid.alias}`);
    const status = page.locator('section', { has: page.getByRole('heading', { name: 'Status' }) });
    await status.getByRole('button', { name: 'Cancel and refund' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel and refund' });
    expect(await dialog.textContent()).toContain(
      `Cancel order ${paid.alias.slice(0, 8)} and refund 67.52 USD? Stock is returned.`,
    );
    // "Keep the order" changes nothing.
    await dialog.getByRole('button', { name: 'Keep the order' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await status.getByRole('button', { name: 'Cancel and refund' }).click();
    await dialog.getByRole('button', { name: 'Yes, cancel and refund' }).click();
    await expect.poll(() => statusText(page)).toMatch(/cancelled and its money given back \(refunded 67\.52 USD/);
    await expect.poll(() => page.locator('main > p').nth(1).textContent()).toMatch(/cancelled · payment refunded/);
    const payments = page.locator('section', { has: page.getByRole('heading', { name: 'Payments' }) });
    await expect
      .poll(() => payments.getByRole('row').nth(1).textContent())
      .toMatch(/refunded.*67\.52 USD.*0\.00 USD.*67\.52 USD.*67\.52 USD/);
    expect(await payments.textContent()).toMatch(/Balance due\s*0\.00 USD/);
    expect(await payments.getByRole('button', { name: /^Refund payment/ }).count()).toBe(0);
    expect(await status.getByRole('button').count()).toBe(0);
    expect(browser.errors).toEqual([]);
  });

  it('records a cash-on-delivery payment as received', async () => {
    const order = await placeDemoOrder(shop);
    await startPayment(shop, order, 'cash_on_delivery');
    const page = await signedIn(browser, `/admin/orders/${order.alias}`);
    const capture = page.getByRole('button', { name: /^Record payment \d+ as received$/ });
    await expect.poll(() => capture.count()).toBe(1);
    await capture.click();
    await expect.poll(() => statusText(page)).toMatch(/recorded as received: 67\.52 USD/);
    await expect.poll(() => capture.count()).toBe(0);
    await expect.poll(() => page.locator('main').textContent()).toMatch(/Payment status: paid/);
    expect(browser.errors).toEqual([]);
  });

  it('creates a webhook endpoint (secret shown once), lists its delivery of an order, and redelivers it', async () => {
    const page = await signedIn(browser, '/admin/webhooks');
    await expect.poll(() => page.getByText('No endpoints yet.').count()).toBe(1);
    const create = page.getByRole('form', { name: 'Create endpoint' });

    // Nothing filled in: the API's 422 beside the URL.
    await create.getByRole('button', { name: 'Create endpoint' }).click();
    await expect.poll(() => errorBeside(page, 'URL')).toMatch(/must/);

    await page.getByLabel('URL').fill(receiver.url('/hooks/orders'));
    await page.getByLabel('Description').fill('ERP');
    await page.getByRole('checkbox', { name: 'order.placed', exact: true }).check();
    await page.getByRole('checkbox', { name: 'order.paid', exact: true }).check();
    await create.getByRole('button', { name: 'Create endpoint' }).click();
    await expect.poll(() => statusText(page)).toMatch(/Endpoint \d+ created/);
    expect(await statusText(page)).toMatch(/shown this once/);
    const secret = await page.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    expect(await errorBeside(page, 'URL')).toBeNull();
    const endpointLink = page.getByRole('link', { name: receiver.url('/hooks/orders') });
    await expect.poll(() => endpointLink.count()).toBe(1);

    // Shown once: not after a reload.
    await page.reload();
    await expect.poll(() => endpointLink.count()).toBe(1);
    expect(await page.getByLabel('Signing secret').count()).toBe(0);

    await placeDemoOrder(shop, 'hooked@example.com');
    await endpointLink.click();
    await expect.poll(() => headingText(page)).toBe(`Webhook endpoint ${receiver.url('/hooks/orders')}`);
    const deliveries = page.locator('section', { has: page.getByRole('heading', { name: 'Deliveries' }) });
    const firstRow = deliveries.getByRole('row').nth(1);
    await expect
      .poll(async () => {
        await deliveries.getByRole('button', { name: 'Refresh deliveries' }).click();
        return (await deliveries.getByRole('row').count()) > 1 ? firstRow.textContent() : '';
      })
      .toMatch(/order\.placed\s*succeeded\s*1\s*204\s*\d+ ms/);
    expect(receiver.received).toHaveLength(1);
    const first = receiver.received[0];
    // The secret the page showed verifies what the receiver got.
    expect(new Webhook(secret).verify(first?.body ?? '', first?.headers as Record<string, string>)).toMatchObject({
      type: 'order.placed',
    });

    await deliveries.getByRole('button', { name: /^Redeliver delivery \d+$/ }).click();
    await expect.poll(() => statusText(page)).toMatch(/Delivery \d+ \(order\.placed\) is queued to be sent again/);
    await expect
      .poll(async () => {
        await deliveries.getByRole('button', { name: 'Refresh deliveries' }).click();
        return firstRow.textContent();
      })
      .toMatch(/order\.placed\s*succeeded\s*2\s*204/);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]?.headers['webhook-id']).toBe(first?.headers['webhook-id']);

    // A new secret, shown once, that is not the old one.
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('button', { name: 'Yes, rotate it' }).click();
    await expect.poll(() => statusText(page)).toMatch(/signing secret was replaced/);
    const rotated = await page.getByLabel('Signing secret').inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);

    // Off: a redelivery is refused, in words; on again.
    await page.getByRole('button', { name: /^Disable endpoint \d+$/ }).click();
    await expect.poll(() => statusText(page)).toMatch(/Endpoint \d+ is off/);
    await deliveries.getByRole('button', { name: /^Redeliver delivery \d+$/ }).click();
    await expect.poll(() => deliveries.getByRole('alert').textContent()).toMatch(/switched off|inactive/i);
    await page.getByRole('button', { name: /^Enable endpoint \d+$/ }).click();
    await expect.poll(() => statusText(page)).toMatch(/Endpoint \d+ is on/);
    expect(browser.errors).toEqual([]);
  });

  it("edits a paid order's lines after a preview, kept in its history: the customer owes the difference", async () => {
    const order = await placeDemoOrder(shop, 'edit.me@example.com');
    await payWithSandbox(shop, order);
    const page = await signedIn(browser, `/admin/orders/${order.alias}`, { viewport: { width: 390, height: 800 } });
    await expect.poll(() => headingText(page)).toBe(`Order ${order.alias}`);
    await page.getByRole('button', { name: 'Edit lines' }).click();
    const dialog = page.getByRole('dialog', { name: `Edit the lines of order ${order.alias}` });
    const mug = dialog.getByLabel(/Mug/);
    await expect.poll(() => mug.inputValue()).toBe('1');
    // The add field suggests variants by their product's name, each offered by the alias it sends.
    const add = dialog.getByLabel('Add a product');
    await add.fill('noteb');
    const notebook = dialog.locator('datalist option[value="demo-notebook"]');
    await expect
      .poll(() => notebook.getAttribute('label'))
      .toMatch(/^Hardcover Notebook — .*: 18\.99 USD, \d+ in stock$/);
    await add.fill('');
    // Nothing changed yet: nothing to preview.
    expect(await dialog.getByRole('button', { name: 'Preview the new total' }).isDisabled()).toBe(true);
    await mug.fill('2');
    await dialog.getByLabel(/^Note/).fill('Phone call: a second mug');
    await dialog.getByRole('button', { name: 'Preview the new total' }).click();
    await expect.poll(() => dialog.textContent()).toMatch(/Total 67\.52 USD → [\d.]+ USD \(\+[\d.]+ USD\)/);
    expect(await dialog.textContent()).toMatch(/The customer will owe [\d.]+ USD more/);
    expect(await scrollsSideways(page)).toBe(false);
    const text = (await dialog.textContent()) ?? '';
    const after = /→ ([\d.]+) USD/.exec(text)?.[1] ?? '';
    const more = /owe ([\d.]+) USD more/.exec(text)?.[1] ?? '';
    // A change after the preview asks for a new one.
    await mug.fill('3');
    expect(await dialog.getByRole('button', { name: /^Save the edit/ }).count()).toBe(0);
    await mug.fill('2');
    await dialog.getByRole('button', { name: 'Preview the new total' }).click();
    await dialog.getByRole('button', { name: `Save the edit (${after} USD)` }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    const lines = page.locator('section', { has: page.getByRole('heading', { name: 'Lines' }) });
    await expect.poll(() => lines.textContent()).toMatch(new RegExp(`Total\\s*${after.replace('.', '\\.')} USD`));
    expect(await lines.getByRole('status').textContent()).toBe(`Saved: the order's total is now ${after} USD.`);
    // The edit is in the order's history: when, the total before and after, what changed and why.
    const edits = page.locator('section', { has: page.getByRole('heading', { name: 'Edits' }) });
    await expect
      .poll(() => edits.textContent())
      .toMatch(new RegExp(`Total 67\\.52 USD → ${after.replace('.', '\\.')} USD`));
    expect(await edits.textContent()).toMatch(/Mug.*: 1 → 2/);
    expect(await edits.textContent()).toContain('Note: Phone call: a second mug');
    const payments = page.locator('section', { has: page.getByRole('heading', { name: 'Payments' }) });
    await expect
      .poll(() => payments.textContent())
      .toMatch(new RegExp(`Balance due\\s*${more.replace('.', '\\.')} USD`));
    await expect.poll(() => payments.textContent()).toMatch(/Payment status: partially paid/);
    const events = page.locator('section', { has: page.getByRole('heading', { name: 'Events' }) });
    await expect.poll(() => events.textContent()).toMatch(/order\.edited/);
    expect(await scrollsSideways(page)).toBe(false);
    // The customer's order page says what was paid and what is left, above the Pay form.
    const shopPage = await guestOrderPage(browser, order, { width: 390, height: 800 });
    await expect
      .poll(() => shopPage.getByTestId('balance-due').textContent(), { timeout: 10_000 })
      .toBe(`You have paid 67.52 USD of this order; ${more} USD is still to pay.`);
    expect(await shopPage.getByRole('button', { name: `Pay ${more} USD` }).count()).toBe(1);
    expect(browser.errors).toEqual([]);
  });

  it('shows the orders list, an order and the webhooks at 375 px without scrolling sideways', async () => {
    const order = await placeDemoOrder(shop, 'a.rather.long.email.address.for.a.narrow.screen@example.com');
    await payWithSandbox(shop, order);
    const page = await signedIn(browser, '/admin/orders', { viewport: { width: 375, height: 740 } });
    await expect.poll(() => page.locator(`a[href="/admin/orders/${order.alias}"]`).count()).toBe(1);
    expect(await scrollsSideways(page)).toBe(false);
    // An alias in the search box opens its order.
    await page.getByLabel('Customer email or order alias').fill(order.alias.toUpperCase());
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => headingText(page)).toBe(`Order ${order.alias}`);
    await expect.poll(() => page.getByRole('heading', { name: 'Events' }).count()).toBe(1);
    expect(await scrollsSideways(page)).toBe(false);
    // The tables reflow: no table scrolls inside its box, and the payment's actions are on screen.
    const refund = page.getByRole('button', { name: /^Refund payment \d+$/ });
    await expect.poll(() => refund.count()).toBe(1);
    const box = await refund.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(375);
    expect(
      await page.evaluate(
        "[...document.querySelectorAll('.table-wrap')].filter((w) => w.scrollWidth > w.clientWidth).length",
      ),
    ).toBe(0);
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Webhooks' }).click();
    await expect.poll(() => headingText(page)).toBe('Webhooks');
    await expect.poll(() => page.getByRole('heading', { name: 'Endpoints' }).count()).toBe(1);
    expect(await scrollsSideways(page)).toBe(false);
    expect(browser.errors).toEqual([]);
  });
});

describe('the dashboard in a store that captures by hand (PAYMENT_CAPTURE=manual)', () => {
  let shop: Shop;
  let browser: BrowserSession;
  beforeAll(async () => {
    shop = await startShop({ PAYMENT_CAPTURE: 'manual' });
    browser = await launchBrowser(shop.baseUrl);
  });
  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
  });

  it('shows the authorization with its expiry, captures part of it after confirming, releases the rest', async () => {
    const order = await placeDemoOrder(shop, 'hold.me@example.com');
    await payWithSandbox(shop, order, 'authorize');
    const page = await signedIn(browser, `/admin/orders/${order.alias}`);
    await expect.poll(() => headingText(page)).toBe(`Order ${order.alias}`);
    const payments = page.locator('section', { has: page.getByRole('heading', { name: 'Payments' }) });
    await expect.poll(() => payments.textContent()).toMatch(/Authorized, not captured: 67\.52 USD\s*— expires/);
    await expect.poll(() => payments.textContent()).toMatch(/Payment status: authorized/);

    await payments.getByRole('button', { name: /^Capture payment \d+$/ }).click();
    const dialog = page.getByRole('dialog', { name: /^Capture payment \d+$/ });
    await expect.poll(() => page.getByLabel('Amount to capture').inputValue()).toBe('67.52');
    await page.getByLabel('Amount to capture').fill('50.00');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    expect(await dialog.textContent()).toMatch(/Capture 50\.00 USD from payment \d+\?/);
    await dialog.getByRole('button', { name: 'Yes, capture 50.00 USD' }).click();
    await expect.poll(() => statusText(page)).toMatch(/Captured 50\.00 USD of payment \d+: 50\.00 USD captured in all/);
    await expect.poll(() => payments.textContent()).toMatch(/Payment status: partially paid/);
    expect(await payments.textContent()).toMatch(/Captured\s*50\.00 USD/);
    expect(await payments.textContent()).toMatch(/Balance due\s*17\.52 USD/);
    // The rest of the authorization was released: nothing is left to capture or void.
    expect(await payments.getByRole('button', { name: /^(Capture|Void) payment/ }).count()).toBe(0);
    expect(browser.errors).toEqual([]);
  });

  it('voids an authorization through its confirmation: the customer is charged nothing', async () => {
    const order = await placeDemoOrder(shop, 'release.me@example.com');
    await payWithSandbox(shop, order, 'authorize');
    const page = await signedIn(browser, `/admin/orders/${order.alias}`);
    const payments = page.locator('section', { has: page.getByRole('heading', { name: 'Payments' }) });
    await payments.getByRole('button', { name: /^Void payment \d+$/ }).click();
    // A void has no amount to choose: the dialog opens on its confirmation.
    const dialog = page.getByRole('dialog', { name: /^Release what payment \d+ holds$/ });
    await expect.poll(() => dialog.textContent()).toMatch(/Release 67\.52 USD held by payment \d+\?/);
    await dialog.getByRole('button', { name: 'Yes, release 67.52 USD' }).click();
    await expect.poll(() => payments.textContent()).toMatch(/Payment status: unpaid/);
    expect(await payments.textContent()).toMatch(/Captured\s*0\.00 USD/);
    expect(browser.errors).toEqual([]);
  });
});

// Returns in Chromium, on a phone-wide screen (390 px): a customer returns one T-shirt of a shipped order from its
// page and sees it requested (cancels another, and reads the API's refusal of a stale form); an admin receives it (its
// unit back in stock) and refunds it, seeing the amount refunded, and the ledger shows what the return took off. A
// guest who never placed the order in this browser opens the shipped email's link and returns an item (decision 0030).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpSink, startSmtpSink } from '../smtp-sink.js';
import {
  ADMIN,
  type BrowserSession,
  callApi,
  guestOrderPage,
  nothingCutOff as cutOffNothing,
  type PlacedOrder,
  payWithSandbox,
  placeDemoOrder,
  type Shop,
  scrollsSideways,
  shopAndBrowser,
  signedIn,
} from './harness.js';

const PHONE = { width: 390, height: 844 };
/** For what waits on the service (two shared cores): a page's first load, a write and the reload after it. */
const SLOW = { timeout: 10_000 };
const TSHIRT = 'Organic Cotton T-Shirt - Small';
const MUG = 'Ceramic Coffee Mug - White';
/** How the shop has returns sent back (RETURN_INSTRUCTIONS), with an address too long for a phone's line. */
const SEND_BACK = 'Post it to Demo Returns, 1 Dock Rd, Oakland, CA 94607; questions: returns-desk@demo-store.example';

const nothingCutOff = (page: Page) => cutOffNothing(page, PHONE.width);
const section = (page: Page, heading: string) =>
  page.locator('section', { has: page.getByRole('heading', { name: heading, exact: true }) });
const statusText = async (page: Page) => (await page.getByRole('status').allTextContents()).join(' ');

async function adminHeaders(shop: Shop): Promise<Record<string, string>> {
  const login = await callApi(shop, '/user/storefront/api/login/', { body: ADMIN });
  return { authorization: `Bearer ${String(login.access)}` };
}

/** GETs the shop's API as the admin. */
async function adminGet(shop: Shop, path: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${shop.baseUrl}${path}`, { headers: await adminHeaders(shop) });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

async function stockOf(shop: Shop, alias: string): Promise<number> {
  const page = await adminGet(shop, '/product/dashboard/api/products/?limit=100');
  for (const p of page.items as { variants: { alias: string; stock: number }[] }[]) {
    const found = p.variants.find((v) => v.alias === alias);
    if (found) return found.stock;
  }
  throw new Error(`no variant ${alias}`);
}

/** A guest's demo order, paid with the sandbox and shipped whole through the API (with a tracking number, if given). */
async function shippedOrder(
  shop: Shop,
  options: { email?: string; tracking?: { carrier: string; tracking_number: string } } = {},
): Promise<PlacedOrder> {
  const order = await placeDemoOrder(shop, options.email);
  await payWithSandbox(shop, order);
  const headers = await adminHeaders(shop);
  const base = `/order/dashboard/api/orders/${order.alias}/fulfillments/`;
  const made = await callApi(shop, base, { headers, body: options.tracking ?? {} });
  await callApi(shop, `${base}${String(made.id)}/ship/`, { headers });
  return order;
}

/**
 * The guest's order page in a new phone-wide browser that kept the order's token (as placing it would), once it says
 * how far the order went out (`fulfilment`: "Shipped", or "Partly returned" once some of it came back).
 */
async function customerOrderPage(browser: BrowserSession, order: PlacedOrder, fulfilment = 'Shipped'): Promise<Page> {
  const page = await guestOrderPage(browser, order, PHONE);
  await expect.poll(() => page.getByTestId('fulfilment-status').textContent(), SLOW).toBe(fulfilment);
  return page;
}

describe('returns on the order page and in the dashboard', () => {
  const running = shopAndBrowser({ RETURN_INSTRUCTIONS: SEND_BACK });

  it('a customer returns one T-shirt from the order page and sees it requested, with how to send it back', async () => {
    const order = await shippedOrder(running.shop);
    const page = await customerOrderPage(running.browser, order);
    const returns = section(page, 'Returns');
    await expect.poll(() => returns.textContent(), SLOW).toMatch(/No return yet\..*Return items/);
    expect(await returns.textContent()).toMatch(/Organic Cotton T-Shirt - Small \(2 of 2 can be returned\)/);
    expect(await nothingCutOff(page)).toBe(true);

    // Checked before anything is sent: a unit needs a reason, and no more than shipped.
    const tshirts = returns.getByLabel(`How many ${TSHIRT} to return`);
    await tshirts.fill('3');
    await returns.getByRole('button', { name: 'Continue' }).click();
    expect(await returns.textContent()).toMatch(/Enter a whole number from 0 to 2/);
    await tshirts.fill('1');
    await returns.getByRole('button', { name: 'Continue' }).click();
    expect(await returns.textContent()).toMatch(/Choose why you return it/);
    await returns.getByLabel(`Reason for returning ${TSHIRT}`).selectOption('size_fit');
    await returns.getByLabel('Anything to add (optional)').fill('Too small');
    await returns.getByRole('button', { name: 'Continue' }).click();
    expect(await returns.textContent()).toMatch(`Return 1 × ${TSHIRT} (Wrong size or fit)?`);
    expect(await nothingCutOff(page)).toBe(true);
    await returns.getByRole('button', { name: 'Yes, return 1 item' }).click();

    await expect
      .poll(() => statusText(page), SLOW)
      .toMatch(/Return requested: we will refund you once the items reach the shop\. Estimated refund: \d+\.\d\d USD/);
    await expect
      .poll(() => returns.textContent(), SLOW)
      .toMatch(/Return 1: Requested: waiting for the items to reach the shop/);
    expect(await returns.textContent()).toMatch(`1 × ${TSHIRT} (Wrong size or fit)`);
    expect(await returns.textContent()).toMatch(/Estimated refund: \d+\.\d\d USD/);
    expect(await statusText(page)).toMatch(/How to send them back is under the return\./);
    expect(await returns.getByText('How to send it back:').count()).toBe(1);
    expect(await returns.textContent()).toContain(`How to send it back: ${SEND_BACK}`);
    expect(await nothingCutOff(page)).toBe(true);
    // What is left can still be returned.
    expect(await returns.textContent()).toMatch(/Organic Cotton T-Shirt - Small \(1 of 2 can be returned\)/);

    // The mug too, then changed their mind: cancelled, it can be returned again.
    await returns.getByLabel(`How many ${MUG} to return`).fill('1');
    await returns.getByLabel(`Reason for returning ${MUG}`).selectOption('changed_mind');
    await returns.getByRole('button', { name: 'Continue' }).click();
    await returns.getByRole('button', { name: 'Yes, return 1 item' }).click();
    await expect.poll(() => returns.getByRole('button', { name: 'Cancel return 2' }).count(), SLOW).toBe(1);
    await returns.getByRole('button', { name: 'Cancel return 2' }).click();
    expect(await returns.textContent()).toMatch(/Cancel this return\? You keep the items/);
    await returns.getByRole('button', { name: 'Yes, cancel return 2' }).click();
    await expect.poll(() => returns.textContent(), SLOW).toMatch(/Return 2: Cancelled/);
    // Only the return still requested says how to send it back.
    expect(await returns.getByText('How to send it back:').count()).toBe(1);
    expect(await statusText(page)).toMatch(/Return cancelled\./);
    expect(await returns.textContent()).toMatch(/Ceramic Coffee Mug - White \(1 of 1 can be returned\)/);
    expect(await nothingCutOff(page)).toBe(true);

    // Meanwhile the last T-shirt went into a return from another tab: the API's refusal is said beside its line.
    await callApi(running.shop, `/order/storefront/api/orders/${order.alias}/returns/`, {
      headers: { 'x-order-token': order.token },
      body: { lines: [{ alias: 'demo-tshirt-s', quantity: 1, reason: 'other' }] },
    });
    await tshirts.fill('1');
    await returns.getByLabel(`Reason for returning ${TSHIRT}`).selectOption('damaged');
    await returns.getByRole('button', { name: 'Continue' }).click();
    await returns.getByRole('button', { name: 'Yes, return 1 item' }).click();
    await expect.poll(() => tshirts.getAttribute('aria-invalid'), SLOW).toBe('true');
    expect(await returns.textContent()).toMatch(
      /You can return at most 0 of this item: the others are not shipped yet, or already in a return\./,
    );
    expect(running.browser.errors).toEqual([]);
  });

  it('an admin receives it (its unit back in stock) and refunds it; the ledger shows it returned', async () => {
    const order = await shippedOrder(running.shop);
    const asked = await callApi(running.shop, `/order/storefront/api/orders/${order.alias}/returns/`, {
      headers: { 'x-order-token': order.token },
      body: { lines: [{ alias: 'demo-tshirt-s', quantity: 1, reason: 'damaged' }] },
    });
    const id = Number(asked.id);
    const estimate = asked.estimated_refund as { amount: string; amount_with_shipping: string };
    const stockBefore = await stockOf(running.shop, 'demo-tshirt-s');

    const page = await signedIn(running.browser, `/admin/orders/${order.alias}`, { viewport: PHONE, poll: SLOW });
    const returns = section(page, 'Returns');
    await expect.poll(() => returns.textContent(), SLOW).toMatch(/requested/);
    expect(await returns.textContent()).toMatch(`1 × ${TSHIRT} (Arrived damaged or defective)`);
    expect(await returns.textContent()).toMatch(`Estimated ${estimate.amount} USD`);
    expect(await nothingCutOff(page)).toBe(true);

    await returns.getByRole('button', { name: `Receive return ${id}` }).click();
    const receive = page.getByRole('dialog', { name: `Receive return ${id}` });
    // The customer said it arrived damaged: it is not offered for sale again unless the admin who unpacks it says so.
    const restock = receive.getByRole('checkbox', { name: new RegExp(`Back into stock: 1 × ${TSHIRT}`) });
    expect(await restock.isChecked()).toBe(false);
    expect(await receive.textContent()).toMatch(/No unit goes back into stock\./);
    await restock.check();
    expect(await receive.textContent()).toMatch(/1 unit goes back into stock\./);
    expect(await nothingCutOff(page)).toBe(true);
    await receive.getByRole('button', { name: 'Yes, mark it received' }).click();
    await expect.poll(() => receive.count(), SLOW).toBe(0);
    await expect.poll(() => statusText(page), SLOW).toMatch(`Return ${id} received: 1 × ${TSHIRT}, 1 back in stock.`);
    expect(await stockOf(running.shop, 'demo-tshirt-s')).toBe(stockBefore + 1);
    await expect.poll(() => returns.textContent(), SLOW).toMatch(/received.*back in stock/);

    await returns.getByRole('button', { name: `Refund return ${id}` }).click();
    const refund = page.getByRole('dialog', { name: `Refund return ${id}` });
    expect(await refund.textContent()).toMatch(`Refund ${estimate.amount} USD to the customer`);
    const shipping = refund.getByRole('checkbox', { name: /Also refund shipping/ });
    await shipping.check();
    expect(await refund.textContent()).toMatch(`Refund ${estimate.amount_with_shipping} USD to the customer`);
    await shipping.uncheck();
    expect(await nothingCutOff(page)).toBe(true);
    await refund.getByRole('button', { name: `Yes, refund ${estimate.amount} USD` }).click();
    await expect.poll(() => refund.count(), SLOW).toBe(0);
    await expect
      .poll(() => statusText(page), SLOW)
      .toMatch(`Return ${id} refunded ${estimate.amount} USD. Refunded: ${estimate.amount} USD on payment`);
    await expect.poll(() => returns.textContent(), SLOW).toMatch(`Refunded ${estimate.amount} USD`);
    // The order charges that much less: the ledger says so.
    const payments = section(page, 'Payments');
    await expect
      .poll(() => payments.textContent(), SLOW)
      .toMatch(`Returned (refunded returns: the order charges this much less)−${estimate.amount} USD`);
    expect(await nothingCutOff(page)).toBe(true);

    // The store's list of returns finds it among the refunded ones, linking to its order.
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Returns' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), SLOW).toBe('Returns');
    await page.getByRole('combobox', { name: 'Status' }).selectOption('refunded');
    await expect.poll(() => page.url()).toMatch(/\/admin\/returns\?status=refunded$/);
    const link = page.getByRole('link', { name: order.alias.slice(0, 8) });
    await expect.poll(() => link.count(), SLOW).toBe(1);
    expect(await link.getAttribute('href')).toBe(`/admin/orders/${order.alias}`);
    expect(await nothingCutOff(page)).toBe(true);

    // The customer reads what was refunded, and that part of the order came back.
    const customer = await customerOrderPage(running.browser, order, 'Partly returned');
    const customerReturns = section(customer, 'Returns');
    await expect.poll(() => customerReturns.textContent(), SLOW).toMatch(/Return 1: Refunded/);
    expect(await customerReturns.textContent()).toMatch(`Refunded: ${estimate.amount} USD`);
    expect(running.browser.errors).toEqual([]);
  });
});

/** The order link in the email to `email` whose subject says `subject` (waiting for it to arrive). */
async function linkInEmail(sink: SmtpSink, input: { email: string; subject: string }): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(() => {
      const email = sink.received.find(
        (e) => e.rcptTo.includes(input.email) && e.headers.get('subject')?.includes(input.subject),
      );
      link = email?.text?.match(/https?:\/\/\S+\/order\/storefront\/orders\/\S+/)?.[0];
      return link !== undefined;
    }, SLOW)
    .toBe(true);
  return link ?? '';
}

describe("a guest opens the shipped email's link in a browser that never saw the order", () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink.close();
  });
  const running = shopAndBrowser(() => ({ SMTP_URL: sink.url }));

  it('follows it to the shop and returns a T-shirt, at 390 px', async () => {
    const email = 'link-guest@example.com';
    const tracking = { carrier: 'ups', tracking_number: '1Z999AA10123456784' };
    const order = await shippedOrder(running.shop, { email, tracking });
    const link = await linkInEmail(sink, { email, subject: `Order ${order.alias} has shipped` });

    // A new visitor: nothing kept, not the order token placement gave.
    const page = await running.browser.newPage({ viewport: PHONE });
    await page.goto(link);
    const track = page.getByRole('link', { name: 'Track this shipment' });
    expect(await track.getAttribute('href')).toMatch(/^https:\/\/.*1Z999AA10123456784/);
    expect(await scrollsSideways(page)).toBe(false);
    await page.getByRole('link', { name: 'Open this order in the shop' }).click();

    await expect.poll(() => page.getByTestId('fulfilment-status').textContent(), SLOW).toBe('Shipped');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Your order');
    // The token is kept, and out of the address bar.
    expect(new URL(page.url()).pathname).toBe(`/orders/${order.alias}`);
    expect(page.url()).not.toContain('token=');
    expect(await page.evaluate("localStorage.getItem('storefront.orderTokens')")).toContain(order.alias);
    expect(await nothingCutOff(page)).toBe(true);

    const returns = section(page, 'Returns');
    await expect.poll(() => returns.textContent(), SLOW).toMatch(/No return yet\..*Return items/);
    await returns.getByLabel(`How many ${TSHIRT} to return`).fill('1');
    await returns.getByLabel(`Reason for returning ${TSHIRT}`).selectOption('damaged');
    await returns.getByRole('button', { name: 'Continue' }).click();
    expect(await returns.textContent()).toMatch(`Return 1 × ${TSHIRT} (Arrived damaged or defective)?`);
    expect(await nothingCutOff(page)).toBe(true);
    await returns.getByRole('button', { name: 'Yes, return 1 item' }).click();
    await expect
      .poll(() => statusText(page), SLOW)
      .toMatch(/Return requested: we will refund you once the items reach the shop\./);
    await expect
      .poll(() => returns.textContent(), SLOW)
      .toMatch(/Return 1: Requested: waiting for the items to reach the shop/);
    expect(await nothingCutOff(page)).toBe(true);

    // Opened again later in the same browser, without the link: the kept token still opens it.
    await page.goto(`/orders/${order.alias}`);
    await expect.poll(() => section(page, 'Returns').textContent(), SLOW).toMatch(/Return 1: Requested/);
    expect(running.browser.errors).toEqual([]);
  });
});

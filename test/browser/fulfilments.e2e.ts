// Shipments in Chromium, on a phone-wide screen (390 px): an admin fulfils part of a paid order with a tracking
// number and ships it, and the customer's order page shows the tracking link; the admin fulfils the rest, cancels
// that shipment (its units are left to fulfil again), ships them and marks both delivered. In a store that captures
// on shipment, shipping says what it captured.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
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
  shopAndBrowser,
  signedIn,
} from './harness.js';

const PHONE = { width: 390, height: 844 };
/** For what waits on the service (two shared cores): a page's first load, a write and the reload after it. */
const SLOW = { timeout: 10_000 };
const TSHIRT = /Organic Cotton T-Shirt - Small/;
const MUG = /Ceramic Coffee Mug - White/;

/** The admin ships the order's two T-shirts with UPS through the API (docs/api.md's example). */
async function shipTshirtsByApi(shop: Shop, order: PlacedOrder): Promise<void> {
  const login = await callApi(shop, '/user/storefront/api/login/', { body: ADMIN });
  const headers = { authorization: `Bearer ${String(login.access)}` };
  const base = `/order/dashboard/api/orders/${order.alias}/fulfillments/`;
  const made = await callApi(shop, base, {
    headers,
    body: { lines: [{ alias: 'demo-tshirt-s', quantity: 2 }], carrier: 'ups', tracking_number: '1Z999AA10123456784' },
  });
  await callApi(shop, `${base}${String(made.id)}/ship/`, { headers });
}

/** Signs the demo admin in on a new phone-wide page and opens the order's page. */
async function adminOrderPage(browser: BrowserSession, order: PlacedOrder): Promise<Page> {
  const page = await signedIn(browser, `/admin/orders/${order.alias}`, { viewport: PHONE, poll: SLOW });
  await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), SLOW).toBe(`Order ${order.alias}`);
  return page;
}

/** The guest's order page in a new phone-wide browser that kept the order's token (as placing it would). */
async function customerOrderPage(browser: BrowserSession, order: PlacedOrder): Promise<Page> {
  const page = await guestOrderPage(browser, order, PHONE);
  await expect.poll(() => page.getByTestId('payment-status').textContent(), SLOW).toBe('Paid');
  return page;
}

const section = (page: Page, heading: string) =>
  page.locator('section', { has: page.getByRole('heading', { name: heading, exact: true }) });
const statusText = async (page: Page) => (await page.getByRole('status').allTextContents()).join(' ');
/** The order's line under its heading: "processing · payment paid · fulfilment partially shipped · placed …". */
const orderFacts = (page: Page) => page.locator('h1 + p').textContent();

/** Whether nothing on the phone-wide page is cut off (harness.ts). */
const nothingCutOff = (page: Page) => cutOffNothing(page, PHONE.width);

describe('shipments in the dashboard and on the order page', () => {
  const running = shopAndBrowser();

  it("fulfils part of a paid order with tracking, ships it; the customer's page links to the carrier", async () => {
    const order = await placeDemoOrder(running.shop);
    await payWithSandbox(running.shop, order);
    const page = await adminOrderPage(running.browser, order);
    await expect.poll(() => orderFacts(page), SLOW).toMatch(/approved · payment paid · fulfilment unfulfilled/);
    const shipments = section(page, 'Shipments');
    await expect.poll(() => shipments.textContent(), SLOW).toMatch(/Left to fulfil: 2 × .*T-Shirt.*, 1 × .*Mug/);

    await shipments.getByRole('button', { name: 'Fulfil' }).click();
    const dialog = page.getByRole('dialog', { name: `Fulfil order ${order.alias}` });
    const tshirts = dialog.getByLabel(TSHIRT);
    expect(await tshirts.inputValue()).toBe('2');
    expect(await dialog.getByLabel(MUG).inputValue()).toBe('1');
    expect(await nothingCutOff(page)).toBe(true);
    // More than is left is refused beside its field, before anything is sent.
    await tshirts.fill('3');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    expect(await dialog.textContent()).toMatch(/Enter a whole number from 0 to 2/);
    await tshirts.fill('2');
    await dialog.getByLabel(MUG).fill('0');
    await dialog.getByLabel('Carrier').fill('ups');
    await dialog.getByLabel('Tracking number').fill('1Z999AA10123456784');
    // The API's refusal of a link shows beside the field it names.
    await dialog.getByLabel('Tracking URL (optional)').fill('ftp://example.com/1Z');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByRole('button', { name: 'Yes, fulfil 2 units' }).click();
    const url = dialog.getByLabel('Tracking URL (optional)');
    await expect.poll(() => url.getAttribute('aria-invalid'), SLOW).toBe('true');
    expect(await dialog.textContent()).toMatch(/must be an http\(s\) URL/);
    await url.fill('');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    expect(await dialog.textContent()).toMatch(
      /Put 2 × Organic Cotton T-Shirt - Small in a new shipment, with ups, tracking number 1Z999AA10123456784\?/,
    );
    await dialog.getByRole('button', { name: 'Yes, fulfil 2 units' }).click();
    await expect.poll(() => dialog.count(), SLOW).toBe(0);
    await expect.poll(() => statusText(page), SLOW).toMatch(/Shipment \d+ created: 2 × Organic Cotton T-Shirt - Small/);
    await expect
      .poll(() => orderFacts(page), SLOW)
      .toMatch(/processing · payment paid · fulfilment partially fulfilled/);
    const link = shipments.getByRole('link', { name: '1Z999AA10123456784' });
    expect(await link.getAttribute('href')).toBe('https://www.ups.com/track?tracknum=1Z999AA10123456784');
    expect(await shipments.textContent()).toMatch(/Left to fulfil: 1 × Ceramic Coffee Mug - White/);

    await shipments.getByRole('button', { name: /^Mark shipped \(shipment \d+\)$/ }).click();
    const ship = page.getByRole('dialog', { name: /^Mark shipment \d+ shipped$/ });
    expect(await ship.getByLabel('Tracking number').inputValue()).toBe('1Z999AA10123456784');
    expect(await nothingCutOff(page)).toBe(true);
    await ship.getByRole('button', { name: 'Yes, mark it shipped' }).click();
    await expect
      .poll(() => statusText(page), SLOW)
      .toMatch(/Shipment \d+ shipped: 2 × .*, with ups, tracking number 1Z999AA10123456784\. The shipped email gives/);
    await expect.poll(() => orderFacts(page), SLOW).toMatch(/processing · payment paid · fulfilment partially shipped/);
    await expect.poll(() => shipments.getByRole('button', { name: /^Mark delivered/ }).count(), SLOW).toBe(1);
    expect(await nothingCutOff(page)).toBe(true);

    const customer = await customerOrderPage(running.browser, order);
    const parcels = section(customer, 'Shipments');
    await expect.poll(() => parcels.textContent(), SLOW).toMatch(/Parcel 1: On its way/);
    expect(await parcels.textContent()).toMatch(/2 × Organic Cotton T-Shirt - Small/);
    const tracking = parcels.getByRole('link', { name: '1Z999AA10123456784' });
    expect(await tracking.getAttribute('href')).toBe('https://www.ups.com/track?tracknum=1Z999AA10123456784');
    expect(await tracking.getAttribute('target')).toBe('_blank');
    expect(await tracking.getAttribute('rel')).toMatch(/\bnoopener\b/);
    expect(await customer.getByTestId('fulfilment-status').textContent()).toBe('Partly shipped: the rest follows');
    expect(await nothingCutOff(customer)).toBe(true);
    expect(running.browser.errors).toEqual([]);
  });

  it('fulfils the rest, cancels that shipment (its units left again), ships them, marks both delivered', async () => {
    const order = await placeDemoOrder(running.shop);
    await payWithSandbox(running.shop, order);
    await shipTshirtsByApi(running.shop, order);
    const page = await adminOrderPage(running.browser, order);
    const shipments = section(page, 'Shipments');
    await expect.poll(() => shipments.textContent(), SLOW).toMatch(/Left to fulfil: 1 × Ceramic Coffee Mug - White\./);

    await shipments.getByRole('button', { name: 'Fulfil' }).click();
    const dialog = page.getByRole('dialog', { name: `Fulfil order ${order.alias}` });
    // The T-shirts are all in a shipment: only the mug is offered.
    expect(await dialog.getByLabel(TSHIRT).count()).toBe(0);
    expect(await dialog.getByLabel(MUG).inputValue()).toBe('1');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    expect(await dialog.textContent()).toMatch(
      /Put 1 × Ceramic Coffee Mug - White in a new shipment, without tracking\?/,
    );
    await dialog.getByRole('button', { name: 'Yes, fulfil 1 unit' }).click();
    await expect.poll(() => shipments.textContent(), SLOW).toMatch(/Every unit is in a shipment\./);
    expect(await shipments.getByRole('button', { name: 'Fulfil' }).count()).toBe(0);

    await shipments.getByRole('button', { name: /^Cancel shipment \d+$/ }).click();
    await expect
      .poll(() => shipments.textContent(), SLOW)
      .toMatch(/Cancel shipment \d+\? Its units \(1 × Ceramic Coffee Mug - White\) go back to what is left to fulfil/);
    expect(await nothingCutOff(page)).toBe(true);
    await shipments.getByRole('button', { name: /^Yes, cancel shipment \d+$/ }).click();
    await expect
      .poll(() => statusText(page), SLOW)
      .toMatch(/Shipment \d+ cancelled: 1 × Ceramic Coffee Mug - White can be fulfilled again\./);
    await expect.poll(() => shipments.textContent(), SLOW).toMatch(/Left to fulfil: 1 × Ceramic Coffee Mug - White\./);
    expect(await shipments.locator('td[data-label="Status"]', { hasText: /^cancelled$/ }).count()).toBe(1);

    // The mug again, leaving at once, with a courier's own tracking page.
    await shipments.getByRole('button', { name: 'Fulfil' }).click();
    expect(await dialog.getByLabel(MUG).inputValue()).toBe('1');
    await dialog.getByLabel('Carrier').fill('Courier');
    await dialog.getByLabel('Tracking number').fill('C-7');
    await dialog.getByLabel('Tracking URL (optional)').fill('https://courier.example/track/C-7');
    await dialog.getByLabel(/It leaves now/).check();
    await dialog.getByRole('button', { name: 'Continue' }).click();
    expect(await dialog.textContent()).toMatch(/Ship 1 × Ceramic Coffee Mug - White in a new shipment, with Courier/);
    await dialog.getByRole('button', { name: 'Yes, ship 1 unit' }).click();
    await expect
      .poll(() => statusText(page), SLOW)
      .toMatch(/Shipment \d+ shipped: 1 × Ceramic Coffee Mug - White, with Courier/);
    await expect.poll(() => orderFacts(page), SLOW).toMatch(/^shipped · payment paid · fulfilment shipped/);
    // The order's status follows its shipments: it is not moved by hand any more.
    expect(await section(page, 'Status').getByRole('button', { name: 'Mark as delivered' }).count()).toBe(0);
    expect(await section(page, 'Status').textContent()).toMatch(
      /This order is shipped: its status follows its shipments/,
    );

    for (const _ of [1, 2]) {
      const before = await shipments.getByRole('button', { name: /^Mark delivered/ }).count();
      await shipments
        .getByRole('button', { name: /^Mark delivered/ })
        .first()
        .click();
      await expect
        .poll(() => shipments.getByRole('button', { name: /^Mark delivered/ }).count(), SLOW)
        .toBe(before - 1);
    }
    await expect.poll(() => orderFacts(page), SLOW).toMatch(/^delivered · payment paid · fulfilment delivered/);
    expect(await nothingCutOff(page)).toBe(true);

    const customer = await customerOrderPage(running.browser, order);
    const parcels = section(customer, 'Shipments');
    await expect.poll(() => parcels.textContent(), SLOW).toMatch(/Parcel 1: Delivered.*Parcel 2: Delivered/);
    // "Delivered" once among the order's facts: the status says no more than the shipping status.
    const facts = (await customer.locator('dl.facts').textContent()) ?? '';
    expect(facts).toMatch(/Shipping status\s*Delivered/);
    expect(facts.match(/Delivered/g)).toHaveLength(1);
    // The cancelled shipment is not the customer's business.
    expect(
      await parcels
        .getByRole('listitem')
        .filter({ hasText: /^Parcel/ })
        .count(),
    ).toBe(2);
    const courier = parcels.getByRole('link', { name: 'C-7' });
    expect(await courier.getAttribute('href')).toBe('https://courier.example/track/C-7');
    expect(await customer.getByTestId('fulfilment-status').textContent()).toBe('Delivered');
    expect(await nothingCutOff(customer)).toBe(true);
    expect(running.browser.errors).toEqual([]);
  });
});

describe('shipping in a store that captures on shipment (PAYMENT_CAPTURE=manual)', () => {
  const running = shopAndBrowser({ PAYMENT_CAPTURE: 'manual', CAPTURE_ON_SHIPMENT: 'true' });

  it('ships an authorized order and says what shipping captured', async () => {
    const order = await placeDemoOrder(running.shop);
    await payWithSandbox(running.shop, order, 'authorize');
    const page = await adminOrderPage(running.browser, order);
    const shipments = section(page, 'Shipments');
    await shipments.getByRole('button', { name: 'Fulfil' }).click();
    const dialog = page.getByRole('dialog', { name: `Fulfil order ${order.alias}` });
    await dialog.getByLabel('Carrier').fill('dhl');
    await dialog.getByLabel('Tracking number').fill('JD014600006281230704');
    await dialog.getByLabel(/It leaves now/).check();
    await dialog.getByRole('button', { name: 'Continue' }).click();
    expect(await dialog.textContent()).toMatch(/Ship 2 × .*, 1 × .* in a new shipment, with dhl/);
    expect(await dialog.textContent()).toMatch(/captures on shipment captures what these units are worth/);
    await dialog.getByRole('button', { name: 'Yes, ship 3 units' }).click();
    await expect
      .poll(() => statusText(page), SLOW)
      .toMatch(/Shipment \d+ shipped: .* Captured 67\.52 USD from payment \d+\./);
    const payments = section(page, 'Payments');
    await expect.poll(() => payments.textContent(), SLOW).toMatch(/Payment status: paid/);
    await expect.poll(() => orderFacts(page), SLOW).toMatch(/^shipped · payment paid · fulfilment shipped/);
    expect(await nothingCutOff(page)).toBe(true);
    expect(running.browser.errors).toEqual([]);
  });
});

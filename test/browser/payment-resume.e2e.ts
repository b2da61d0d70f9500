// Issue #24 item 2, "Payment can be resumed or switched", through the pages only: a shopper who presses Back on the
// sandbox's payment page lands on the order page, which offers to continue that payment and the Pay form to choose
// a method; continuing pays the order, choosing cash on delivery instead supersedes the sandbox attempt. The order
// page stops following the order after a bounded time and says what to do. At 390 px nothing is cut off.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, launchBrowser, type Shop, scrollsSideways, startShop } from './harness.js';

const PHONE = { width: 390, height: 844 };
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000 });
const SANDBOX = 'Sandbox (test payments)';

describe('resuming or switching a payment after Back from the gateway', () => {
  let shop: Shop;
  let browser: BrowserSession;
  let guests = 0;

  beforeAll(async () => {
    shop = await startShop();
    browser = await launchBrowser(shop.baseUrl);
  });
  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
  });

  async function visit(options?: { viewport: { width: number; height: number } }) {
    const page = await browser.newPage(options);
    page.setDefaultTimeout(15_000);
    return page;
  }

  /** A guest buys a mug (to California), places the order and is on its page; gives the order's total. */
  async function placeOrder(page: Page): Promise<string> {
    await page.goto('/');
    await page.getByRole('main').getByRole('link', { name: 'Mug' }).click();
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.getByRole('status').filter({ hasText: 'to your cart' }).waitFor();
    await page.goto('/checkout');
    await page.getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
    await page.getByLabel('Email').fill(`resume-${++guests}-${Date.now()}@example.com`);
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Street address').fill('1 Main St');
    await page.getByLabel('City').fill('Los Angeles');
    await page.getByLabel('Postal code').fill('90001');
    await page.getByLabel('Country').selectOption('US');
    await page.getByLabel('State', { exact: true }).selectOption('CA');
    await poll(() => page.getByRole('radio', { name: /Standard/ }).isChecked()).toBe(true);
    await poll(() => page.getByText('Shipping (Standard)').count()).toBe(1);
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.waitForURL(/\/orders\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { level: 1, name: 'Thank you for your order' }).waitFor();
    const total = (await page.locator('dl.facts dd .money').textContent())?.trim() ?? '';
    expect(total).toMatch(/^\d+\.\d{2} USD$/);
    return total;
  }

  /** Chooses the sandbox, presses "Pay <total>", then Back on the sandbox's page. */
  async function startSandboxThenGoBack(page: Page, total: string) {
    await page.getByRole('radio', { name: SANDBOX }).check();
    await page.getByRole('button', { name: `Pay ${total}` }).click();
    await page.getByRole('heading', { name: 'Sandbox payment' }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Thank you for your order' }).waitFor();
  }

  /** Whether the element is inside the viewport's width (not cut off at either side). */
  async function fitsWidth(locator: Locator, width: number): Promise<boolean> {
    const box = await locator.boundingBox();
    return box !== null && box.x >= 0 && box.x + box.width <= width;
  }

  it('offers to continue the sandbox payment and the Pay form after Back; paying then makes it Paid', async () => {
    const page = await visit();
    await page.clock.install();
    const total = await placeOrder(page);
    await startSandboxThenGoBack(page, total);

    const pay = page.getByRole('region', { name: 'Pay', exact: true });
    const resume = pay.getByRole('link', { name: `Continue paying with ${SANDBOX}` });
    await resume.waitFor();
    expect(await pay.getByRole('button', { name: `Pay ${total}` }).isEnabled()).toBe(true);
    expect(await pay.getByRole('radio', { name: 'Cash on delivery' }).count()).toBe(1);
    expect(await pay.getByText('choosing another one cancels the payment you started').count()).toBe(1);
    await poll(() => pay.getByText('Waiting to hear from the payment provider…').count()).toBe(1);

    // Two minutes on, the page stops asking and says what to do; "Check again" asks again.
    await page.clock.fastForward('02:05');
    const stalled = pay.getByText('We have not heard from the payment provider yet.');
    await poll(() => stalled.count()).toBe(1);
    await pay.getByRole('button', { name: 'Check again' }).click();
    await poll(() => stalled.count()).toBe(0);
    await poll(() => pay.getByText('Waiting to hear from the payment provider…').count()).toBe(1);

    await resume.click();
    await page.getByRole('heading', { name: 'Sandbox payment' }).waitFor();
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL(/\/orders\/[0-9a-f-]{36}\?/);
    await poll(() => page.getByTestId('payment-status').textContent()).toBe('Paid');
    expect(await page.getByRole('region', { name: 'Pay', exact: true }).count()).toBe(0);
    // The attempt continued is the one started: one payment, paid.
    const payments = page.getByRole('region', { name: 'Payments and refunds' }).getByRole('listitem');
    await poll(() => payments.allTextContents()).toEqual([expect.stringMatching(new RegExp(`^${total} · Paid · `))]);
    expect(browser.errors).toEqual([]);
  });

  it('lets the shopper switch to cash on delivery after Back, at 390 px with nothing cut off', async () => {
    const page = await visit({ viewport: PHONE });
    const total = await placeOrder(page);
    await startSandboxThenGoBack(page, total);

    const pay = page.getByRole('region', { name: 'Pay', exact: true });
    const resume = pay.getByRole('link', { name: `Continue paying with ${SANDBOX}` });
    await resume.waitFor();
    const payButton = pay.getByRole('button', { name: `Pay ${total}` });
    expect(await scrollsSideways(page)).toBe(false);
    for (const shown of [
      resume,
      payButton,
      pay.getByText('choosing another one cancels the payment you started'),
      pay.locator('fieldset'),
      page.getByRole('region', { name: 'Payments and refunds' }),
      page.locator('dl.facts'),
    ]) {
      expect(await fitsWidth(shown, PHONE.width)).toBe(true);
    }

    await pay.getByRole('radio', { name: 'Cash on delivery' }).check();
    await payButton.click();
    await page.waitForURL(/\/orders\/[0-9a-f-]{36}\?.*payment_status=pending/);
    await page
      .getByRole('status')
      .filter({ hasText: 'If you chose to pay on delivery, there is nothing more to do now.' })
      .waitFor();
    const chosen = page.getByText(`You chose Cash on delivery: you pay ${total} when your order is delivered`);
    await chosen.waitFor();
    // The form is there to pay online instead: the sandbox is offered first.
    await page.getByRole('heading', { name: 'Pay now instead' }).waitFor();
    expect(await page.getByRole('radio', { name: SANDBOX }).isChecked()).toBe(true);
    expect(await page.getByRole('link', { name: /Continue paying/ }).count()).toBe(0);
    const payments = page.getByRole('region', { name: 'Payments and refunds' }).getByRole('listitem');
    await poll(() => payments.allTextContents()).toEqual([
      expect.stringMatching(new RegExp(`^${total} · Replaced by another method · ${SANDBOX.replace(/[()]/g, '\\$&')}`)),
      expect.stringMatching(new RegExp(`^${total} · To pay on delivery · Cash on delivery`)),
    ]);
    expect(await page.getByTestId('payment-status').textContent()).toBe('Not paid yet');
    // Cash waits for the shop, not for a gateway: the page neither follows the order nor says it waits.
    expect(await page.getByText('Waiting to hear from the payment provider…').count()).toBe(0);
    expect(await scrollsSideways(page)).toBe(false);
    expect(await fitsWidth(chosen, PHONE.width)).toBe(true);
    expect(browser.errors).toEqual([]);
  });
});

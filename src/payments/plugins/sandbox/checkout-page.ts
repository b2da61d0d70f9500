import { escapeHtml, htmlDocument } from '../../../http/html.js';
import { formatMinor } from '../../../shared/money.js';
import type { CheckoutParams } from './signing.js';

/** The sandbox's pages: the checkout (Pay, or Authorize with manual capture, or Decline) and its error page. */

// Shared with the service's other pages, so the escaping and the page headers have one home.
export { escapeHtml, PAGE_HEADERS } from '../../../http/html.js';

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; background: #f4f4f5; color: #18181b; margin: 0; }
  main { max-width: 28rem; margin: 4rem auto; background: #fff; border-radius: .5rem; padding: 2rem;
    box-shadow: 0 1px 3px #0002; }
  h1 { font-size: 1.25rem; margin: 0 0 .25rem; }
  .note { color: #71717a; font-size: .875rem; margin: 0 0 1.5rem; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: .5rem 1rem; margin: 0 0 1.5rem; }
  dt { color: #71717a; } dd { margin: 0; word-break: break-all; }
  .amount { font-size: 1.5rem; font-weight: 600; }
  .buttons { display: flex; gap: 1rem; }
  button { flex: 1; font: inherit; padding: .75rem; border-radius: .375rem; border: 1px solid #d4d4d8; cursor: pointer;
    background: #fff; }
  button.pay { background: #16a34a; border-color: #16a34a; color: #fff; font-weight: 600; }
  .error { color: #b91c1c; }`;

const layout = (title: string, body: string): string => htmlDocument({ title, style: STYLE, body });

/** "24.68 USD", "2335 JPY", "2348.600 KWD": exactly the currency's precision. */
export function displayAmount(params: Pick<CheckoutParams, 'amountMinor' | 'exponent' | 'currency'>): string {
  return `${formatMinor(params.amountMinor, params.exponent)} ${params.currency}`;
}

/**
 * The checkout page: what is being paid, and a form that re-sends the signed fields with the
 * payer's decision to `action` (the checkout route itself). With manual capture the payer
 * authorizes: the money is held and the store captures it later.
 */
export function renderCheckoutPage(input: { params: CheckoutParams; fields: URLSearchParams; action: string }): string {
  const hidden = [...input.fields]
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const manual = input.params.captureMethod === 'manual';
  const accept = manual
    ? '<button type="submit" name="decision" value="authorize" class="pay">Authorize</button>'
    : '<button type="submit" name="decision" value="pay" class="pay">Pay</button>';
  const hold = manual
    ? '\n<p class="note">Authorizing holds the amount; the store takes it (all or part) later, or releases it.</p>'
    : '';
  return layout(
    'Sandbox payment',
    `<h1>Sandbox payment</h1>
<p class="note">A test gateway run by the store itself: no money moves.</p>${hold}
<dl>
<dt>Order</dt><dd>${escapeHtml(input.params.orderAlias)}</dd>
<dt>Amount</dt><dd class="amount">${escapeHtml(displayAmount(input.params))}</dd>
</dl>
<form method="post" action="${escapeHtml(input.action)}">
${hidden}
<div class="buttons">
${accept}
<button type="submit" name="decision" value="decline">Decline</button>
</div>
</form>`,
  );
}

/** A page explaining why the sandbox can't go on (bad link, refused webhook). */
export function renderErrorPage(message: string): string {
  return layout(
    'Sandbox payment: error',
    `<h1>Sandbox payment</h1>
<p class="error">${escapeHtml(message)}</p>
<p class="note">Go back to the store and start the payment again.</p>`,
  );
}

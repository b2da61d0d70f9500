import { fieldError, type Problem, problemBeyondFields, problemMessage } from '../../shared/problem';

/** Codes said beside a field of the checkout (the code field, the country, the email) rather than under the button. */
const SAID_BESIDE = new Set(['promo_code_invalid', 'shipping_unavailable', 'address_required', 'email_required']);

/**
 * Where each error of the checkout goes: the estimate's or the placement's problem, the page's own checks before
 * placing (`hint`), and a country no shipping method serves.
 */
export function checkoutErrors(input: {
  problem: Problem | undefined;
  hint: { country?: string | undefined };
  noShipping: boolean;
}) {
  const { problem } = input;
  const countryError =
    input.hint.country
    ?? (problem?.code === 'shipping_unavailable' || problem?.code === 'address_required'
      ? problemMessage(problem)
      : undefined)
    ?? (input.noShipping ? 'We do not ship to this country.' : undefined);
  /** A line is named by its index in the payload (`variants[0].alias`) or by its alias (`variants[alias=…]`). */
  const lineError = (alias: string, index: number) =>
    [fieldError(problem, `variants[${index}]`), fieldError(problem, `variants[alias=${alias}]`)]
      .filter(Boolean)
      .join('; ') || undefined;
  const emailError = fieldError(problem, 'shipping_address.email') ?? fieldError(problem, 'billing_address.email');
  const general =
    problem && !SAID_BESIDE.has(problem.code)
      ? problemBeyondFields(problem, ['shipping_address', 'billing_address', 'variants'])
      : undefined;
  return { countryError, lineError, emailError, general };
}

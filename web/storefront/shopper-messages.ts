// Some API errors said in the shopper's words, from the figures the problem carries (docs/api.md, "Errors").
import { type Problem, problemMessage } from '../shared/problem';

/** A number the problem carries besides the standard fields (`available`, `limit`), if it does. */
function extraNumber(problem: Problem, name: 'available' | 'limit'): number | undefined {
  const value: unknown = (problem as Problem & Record<string, unknown>)[name];
  return typeof value === 'number' ? value : undefined;
}

/** What went wrong with adding to or changing the cart. */
export function cartProblemMessage(problem: Problem): string {
  switch (problem.code) {
    case 'insufficient_stock': {
      const available = extraNumber(problem, 'available');
      if (available === undefined) return problemMessage(problem);
      return available === 0 ? 'Out of stock.' : `Not enough stock: only ${available} available.`;
    }
    case 'purchase_limit_exceeded': {
      const limit = extraNumber(problem, 'limit');
      return limit === undefined ? problemMessage(problem) : `At most ${limit} per order.`;
    }
    case 'variant_not_found':
      return 'This item can no longer be bought.';
    default:
      return problemMessage(problem);
  }
}

/** What went wrong with asking for a return, or cancelling one. */
export function returnProblemMessage(problem: Problem): string {
  switch (problem.code) {
    case 'nothing_to_return':
      return 'Nothing of this order has shipped yet: only items that were shipped can be returned.';
    case 'return_exceeds_returnable': {
      const most: unknown = (problem as Problem & Record<string, unknown>).returnable;
      return typeof most === 'number'
        ? `You can return at most ${most} of this item: the others are not shipped yet, or already in a return.`
        : problemMessage(problem);
    }
    case 'unknown_return_reason':
      return 'That reason is no longer offered: choose another one.';
    case 'invalid_transition':
      return 'This return can no longer be cancelled: the shop has already received the items. Reload the page.';
    default:
      return problemMessage(problem);
  }
}

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

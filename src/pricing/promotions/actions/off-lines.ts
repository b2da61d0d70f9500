import { allocate, sumMinor } from '../../../shared/money.js';
import { inScope } from '../product-scope.js';
import type { ActionContext, UnitTake } from '../promotion.modules.js';
import type { ProductScope } from '../promotion.types.js';
import { lineLeftMinor, spreadOverLine } from '../unit-runs.js';

/**
 * An amount off the lines of `products` together (SPEC section 6, step 2): `amountOf` gets what is left of them and
 * says how much to take, capped at that; the amount is allocated over those lines in proportion to what is left of
 * each, by largest remainder, then spread over each line's units.
 */
export function takeOffLines(
  context: ActionContext,
  take: { products: ProductScope; amountOf: (eligibleMinor: number) => number },
): UnitTake[] {
  const weights = context.lines.map((line) => (inScope(take.products, line.productId) ? lineLeftMinor(line) : 0));
  const eligible = sumMinor(weights);
  const amount = Math.min(take.amountOf(eligible), eligible);
  if (amount === 0) return [];
  const takes: UnitTake[] = [];
  allocate(amount, weights).forEach((amountMinor, line) => {
    if (amountMinor > 0) takes.push(...spreadOverLine(context.lines, { line, amountMinor }));
  });
  return takes;
}

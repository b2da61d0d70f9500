import { sumMinor } from '../../../shared/money.js';
import { openLines } from '../claimed-units.js';
import { flag, type PricingForm, percent, productScope, units } from '../kind-fields.js';
import { inScope } from '../product-scope.js';
import { actionKind, type LineLeft } from '../promotion.modules.js';
import { parsePercent, percentOff } from '../promotion-amounts.js';
import type { UnitGroup } from '../unit-runs.js';
import { firstUnits, unitsInScope } from '../unit-runs.js';
import { takeOffUnits } from './off-units.js';
import { unitCount } from './unit-count.js';

/**
 * For every `buyQuantity` units bought from `buyProducts`, `getQuantity` units of `getProducts` get `percent` off
 * (100: free), rounded per unit. A unit serves once: either to qualify or to be discounted, in this promotion and in
 * every buy-get applied after it (claimed-units.ts), so only the units no buy-get used before count here. As many
 * deals as those units allow (one with `repeat: false`); the discounted units are the cheapest of `getProducts` that
 * still have a value, the units that qualify the dearest of the others. Every bought unit counts to qualify, whatever
 * is left of it.
 */
const fields = {
  buy_quantity: units({ description: 'Units to buy for each reward, at least 1', label: 'Units to buy' }),
  buy_products: productScope({
    description: 'Products whose units count as bought',
    label: 'Bought product ids',
    hint: 'Commas between; blank: every product',
  }),
  get_quantity: units({ description: 'Units rewarded each time, at least 1', label: 'Units rewarded' }),
  get_products: productScope({
    description: 'Products that can be rewarded',
    label: 'Rewarded product ids',
    hint: 'Commas between; blank: every product',
  }),
  percent: percent({ label: 'Percent off the rewarded units', hint: '100: free' }),
  repeat: flag({
    default: true,
    description: 'true (default): once per `buy_quantity` units; false: once per order',
    label: 'Repeat for every group bought',
  }),
};

type BuyXGetY = PricingForm<'buy_x_get_y', typeof fields>;

export const buyXGetY = actionKind({
  type: 'buy_x_get_y',
  label: 'Buy X, get Y',
  description:
    'For every `buy_quantity` units bought from `buy_products`, `get_quantity` units of `get_products` '
    + '(the cheapest, not counting units used to qualify) get `percent` off',
  example: { type: 'buy_x_get_y', buy_quantity: 2, get_quantity: 1, percent: '100', repeat: true },
  fields,
  take(action, context) {
    const percent = parsePercent(action.percent);
    const deals = dealUnits(action, openLines(context.lines));
    const units = takeOffUnits(deals.given, (value) => percentOff(value, percent, context.roundingMode));
    // A buy-get that takes nothing off is not applied (nor listed), so it uses up no units either.
    const claims = units.length === 0 ? [] : [...deals.given, ...deals.qualifying];
    return { units, shippingMinor: 0, claims };
  },
});

/**
 * The units of the deals among `lines` (the open ones): those given, the cheapest get-units, leaving enough others to
 * qualify; and those bought to qualify, the dearest of the others.
 */
export function dealUnits(
  action: BuyXGetY,
  lines: readonly LineLeft[],
): { given: UnitGroup[]; qualifying: UnitGroup[] } {
  const buy = unitCount(action.buyQuantity, { what: 'buy_quantity', min: 1 });
  const get = unitCount(action.getQuantity, { what: 'get_quantity', min: 1 });
  const getUnits = unitsInScope(lines, action.getProducts);
  const buysToo = (group: UnitGroup) => inScope(action.buyProducts, lines[group.line]?.productId ?? -1);
  const buyUnits = sumMinor(lines.filter((l) => inScope(action.buyProducts, l.productId)).map((l) => l.quantity));
  const both = sumMinor(getUnits.filter(buysToo).map((g) => g.count));
  const counts = { buyOnly: buyUnits - both, getOnly: sumMinor(getUnits.map((g) => g.count)) - both, both };

  let deals = mostDeals(counts, { buy, get });
  if (!action.repeat) deals = Math.min(deals, 1);
  let wanted = deals * get;
  // Units that may serve as get-units although they could qualify: what the buys leave of them.
  let sharedLeft = both - Math.max(0, deals * buy - counts.buyOnly);
  const given: UnitGroup[] = [];
  for (const group of getUnits) {
    if (wanted === 0) break;
    const shared = buysToo(group);
    const count = Math.min(group.count, wanted, shared ? sharedLeft : group.count);
    if (count === 0) continue;
    given.push({ ...group, count });
    wanted -= count;
    if (shared) sharedLeft -= count;
  }
  return { given, qualifying: qualifyingUnits(lines, { scope: action.buyProducts, given, count: deals * buy }) };
}

/**
 * `count` units of `scope` that are not given, the dearest first (equal values: the earlier line first; units worth 0
 * last). The deals were counted so that there are enough; fewer is a bug and throws.
 */
function qualifyingUnits(
  lines: readonly LineLeft[],
  wanted: { scope: BuyXGetY['buyProducts']; given: readonly UnitGroup[]; count: number },
): UnitGroup[] {
  if (wanted.count === 0) return [];
  const givenOf = (line: number, valueMinor: number) =>
    sumMinor(wanted.given.filter((g) => g.line === line && g.valueMinor === valueMinor).map((g) => g.count));
  const others: UnitGroup[] = [];
  lines.forEach((line, index) => {
    if (!inScope(wanted.scope, line.productId)) return;
    for (const run of line.units) {
      const count = run.count - givenOf(index, run.valueMinor);
      if (count > 0) others.push({ line: index, valueMinor: run.valueMinor, count });
    }
  });
  const picked = firstUnits(
    others.sort((a, b) => b.valueMinor - a.valueMinor || a.line - b.line),
    wanted.count,
  );
  if (sumMinor(picked.map((g) => g.count)) !== wanted.count) {
    throw new RangeError(`buy_x_get_y found fewer than ${wanted.count} units to qualify`);
  }
  return picked;
}

/**
 * The most deals the units allow: `buy` units qualify and `get` other units are discounted per deal, a unit in both
 * scopes serving one role. Feasibility falls as deals grow, so a binary search finds the largest.
 */
function mostDeals(
  units: { buyOnly: number; getOnly: number; both: number },
  deal: { buy: number; get: number },
): number {
  const feasible = (n: number) => {
    const sharedForBuys = Math.max(0, n * deal.buy - units.buyOnly);
    const sharedForGets = Math.max(0, n * deal.get - units.getOnly);
    return sharedForBuys + sharedForGets <= units.both;
  };
  let low = 0;
  let high = Math.floor((units.buyOnly + units.both) / deal.buy);
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (feasible(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}

import type { LineLeft, UnitClaim, UnitRun, UnitTake } from './promotion.modules.js';

/**
 * The one place that keeps which units buy-get promotions have used (docs/pricing.md, "Buy-get units are used once").
 *
 * A buy-get deal uses units in two roles: bought to qualify, or given (discounted). Within one order, a unit a buy-get
 * used is used up for every buy-get applied after it, in either role; the other actions still see it and discount
 * what is left of it. `LineLeft.claimed` holds those units per line; a buy-get names the units it used in
 * `ActionTake.claims`; `applyInTurn` (promotions.apply.ts) records them with `claimUnits` before it applies the takes,
 * and `applyUnitTakes` (unit-runs.ts) carries the ledger through every take with `claimedAfterTakes`.
 *
 * Units of one line with the same left value are interchangeable for the amounts, not for the ledger: some may be
 * claimed, others open. A take from units of such a value lands on the claimed ones first. That is what keeps a
 * buy-get's own given units claimed (they are claimed, then discounted), and for a later percentage or fixed action
 * it leaves the open units as they were, for the buy-gets after it.
 */

/** The units of a line no buy-get has used yet, cheapest first. */
export function openUnits(line: LineLeft): readonly UnitRun[] {
  if (line.claimed.length === 0) return line.units;
  const claimed = countsByValue(line.claimed);
  const open: UnitRun[] = [];
  for (const run of line.units) {
    const count = run.count - (claimed.get(run.valueMinor) ?? 0);
    if (count < 0) throw new RangeError(`line of product ${line.productId} has more units claimed than it holds`);
    if (count > 0) open.push({ valueMinor: run.valueMinor, count });
  }
  return open;
}

/**
 * The lines as a buy-get sees them: only their open units, `quantity` being how many, nothing claimed. Lines keep
 * their places, so a `UnitTake` or `UnitClaim` made on this view names the same units of the real lines.
 */
export function openLines(lines: readonly LineLeft[]): readonly LineLeft[] {
  if (lines.every((line) => line.claimed.length === 0)) return lines;
  return lines.map((line) => {
    if (line.claimed.length === 0) return line;
    const units = openUnits(line);
    let quantity = 0;
    for (const run of units) quantity += run.count;
    return { productId: line.productId, unitPriceMinor: line.unitPriceMinor, quantity, units, claimed: [] };
  });
}

/**
 * The lines once a buy-get's units are claimed, the claims naming units by their value before its takes. Claiming a
 * unit that is not open (already claimed, or not there) is a module bug and throws.
 */
export function claimUnits(lines: readonly LineLeft[], claims: readonly UnitClaim[]): LineLeft[] {
  const added = new Map<number, Map<number, number>>();
  for (const claim of claims) {
    if (!Number.isSafeInteger(claim.count) || claim.count < 0) throw new RangeError(`claims ${claim.count} units`);
    let values = added.get(claim.line);
    if (!values) {
      values = new Map();
      added.set(claim.line, values);
    }
    values.set(claim.valueMinor, (values.get(claim.valueMinor) ?? 0) + claim.count);
  }
  return lines.map((line, i) => {
    const values = added.get(i);
    if (!values) return line;
    const open = countsByValue(openUnits(line));
    const claimed = countsByValue(line.claimed);
    for (const [valueMinor, count] of values) {
      const have = open.get(valueMinor) ?? 0;
      if (count > have) {
        throw new RangeError(`claims ${count} units worth ${valueMinor} of line ${i}, which has ${have} open`);
      }
      claimed.set(valueMinor, (claimed.get(valueMinor) ?? 0) + count);
    }
    return { ...line, claimed: toRuns(claimed) };
  });
}

/**
 * A line's claimed units after an action's takes on that line (each naming units by their value before the action):
 * a take from a value lands on its claimed units first, and those units are claimed at their new value.
 */
export function claimedAfterTakes(claimed: readonly UnitRun[], takes: readonly UnitTake[]): readonly UnitRun[] {
  if (takes.length === 0) return claimed;
  // A line holds a run or two: arrays, not maps (this runs for every action after a buy-get, on every estimate).
  const left = claimed.map((run) => ({ valueMinor: run.valueMinor, count: run.count }));
  const moved: UnitRun[] = [];
  for (const take of takes) {
    const run = left.find((r) => r.valueMinor === take.valueMinor);
    const count = run ? Math.min(run.count, take.count) : 0;
    if (!run || count === 0) continue;
    run.count -= count;
    const valueMinor = take.valueMinor - take.offMinor;
    const to = moved.find((r) => r.valueMinor === valueMinor);
    if (to) to.count += count;
    else moved.push({ valueMinor, count });
  }
  for (const run of moved) {
    const at = left.find((r) => r.valueMinor === run.valueMinor);
    if (at) at.count += run.count;
    else left.push({ valueMinor: run.valueMinor, count: run.count });
  }
  return left.filter((run) => run.count > 0).sort((a, b) => a.valueMinor - b.valueMinor);
}

function countsByValue(runs: readonly UnitRun[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const run of runs) counts.set(run.valueMinor, (counts.get(run.valueMinor) ?? 0) + run.count);
  return counts;
}

function toRuns(counts: ReadonlyMap<number, number>): UnitRun[] {
  const runs: UnitRun[] = [];
  for (const [valueMinor, count] of counts) if (count > 0) runs.push({ valueMinor, count });
  return runs.sort((a, b) => a.valueMinor - b.valueMinor);
}

import { addMinor, allocate, multiplyMinor, sumMinor } from '../../shared/money.js';
import { claimedAfterTakes } from './claimed-units.js';
import { inScope } from './product-scope.js';
import type { LineLeft, UnitRun, UnitTake } from './promotion.modules.js';
import type { ProductScope } from './promotion.types.js';

/**
 * What is left of each unit of each line, as runs of equal values: a line of 1,000 identical units is one run, so
 * the work does not grow with quantities. Units of one line with the same value are interchangeable, which is what
 * makes a run enough.
 */

/** The lines before any promotion: every unit at its price. */
export function linesAtPrice(
  lines: readonly { productId: number; unitPriceMinor: number; quantity: number }[],
): LineLeft[] {
  return lines.map((line) => ({
    productId: line.productId,
    unitPriceMinor: line.unitPriceMinor,
    quantity: line.quantity,
    units: [{ valueMinor: line.unitPriceMinor, count: line.quantity }],
    claimed: [],
  }));
}

/** Σ what is left of a line's units. */
export function lineLeftMinor(line: LineLeft): number {
  const [only, ...more] = line.units;
  if (only && more.length === 0) return multiplyMinor(only.valueMinor, only.count);
  return sumMinor(line.units.map((run) => multiplyMinor(run.valueMinor, run.count)));
}

/** Units of one line with one left value; `line` indexes the lines. */
export interface UnitGroup {
  line: number;
  valueMinor: number;
  count: number;
}

/** Units in the lines of `scope`, cheapest first; equal values: the earlier line first. Units worth 0 are left out. */
export function unitsInScope(lines: readonly LineLeft[], scope: ProductScope): UnitGroup[] {
  const groups: UnitGroup[] = [];
  lines.forEach((line, index) => {
    if (!inScope(scope, line.productId)) return;
    for (const run of line.units) {
      if (run.valueMinor > 0) groups.push({ line: index, valueMinor: run.valueMinor, count: run.count });
    }
  });
  return groups.sort((a, b) => a.valueMinor - b.valueMinor || a.line - b.line);
}

/** The first `limit` units of groups already sorted cheapest first (all of them when `limit` is null). */
export function firstUnits(groups: readonly UnitGroup[], limit: number | null): UnitGroup[] {
  if (limit === null) return [...groups];
  const taken: UnitGroup[] = [];
  let left = limit;
  for (const group of groups) {
    if (left <= 0) break;
    const count = Math.min(group.count, left);
    taken.push({ ...group, count });
    left -= count;
  }
  return taken;
}

/**
 * Takes `amountMinor` (at most what is left) off one line, spread over its units in proportion to what is left of
 * each: over its runs by largest remainder, then evenly over a run's units (some get one minor unit more).
 */
export function spreadOverLine(lines: readonly LineLeft[], take: { line: number; amountMinor: number }): UnitTake[] {
  const line = lines[take.line];
  if (!line || take.amountMinor === 0) return [];
  // One run (every unit of the line worth the same, the usual case) takes the whole amount.
  const shares =
    line.units.length === 1 && (line.units[0]?.count ?? 0) > 0 && (line.units[0]?.valueMinor ?? 0) > 0
      ? [take.amountMinor]
      : allocate(
          take.amountMinor,
          line.units.map((run) => multiplyMinor(run.valueMinor, run.count)),
        );
  const takes: UnitTake[] = [];
  line.units.forEach((run, i) => {
    const share = shares[i] ?? 0;
    const each = Math.floor(share / run.count);
    const more = share - each * run.count;
    if (more > 0) takes.push({ line: take.line, valueMinor: run.valueMinor, count: more, offMinor: each + 1 });
    if (each > 0) takes.push({ line: take.line, valueMinor: run.valueMinor, count: run.count - more, offMinor: each });
  });
  return takes;
}

/**
 * The lines after the takes of one action, all computed on the lines before it (a unit is taken from at most once
 * per action). A take that asks for more units than a line has at that value, or more than a unit is worth, is a
 * module bug and throws.
 */
export function applyUnitTakes(lines: readonly LineLeft[], takes: readonly UnitTake[]): LineLeft[] {
  // Only the lines taken from are rebuilt; the others are passed on as they are.
  const touched: (EditableRuns | undefined)[] = new Array(lines.length);
  // Each touched line's takes, in order, for its claimed units.
  const takesOf: UnitTake[][] = new Array(lines.length);
  const added: { line: number; valueMinor: number; count: number }[] = [];
  for (const take of takes) {
    const line = lines[take.line];
    let runs = touched[take.line];
    if (line && !runs) {
      runs = editableRuns(line);
      touched[take.line] = runs;
      takesOf[take.line] = [];
    }
    takesOf[take.line]?.push(take);
    const at = runs ? runs.values.indexOf(take.valueMinor) : -1;
    const have = runs && at >= 0 ? (runs.counts[at] ?? 0) : 0;
    if (!runs) throw overTaken(take, have);
    checkTake(take, have);
    runs.counts[at] = have - take.count;
    added.push({ line: take.line, valueMinor: take.valueMinor - take.offMinor, count: take.count });
  }
  for (const unit of added) {
    const runs = touched[unit.line];
    if (runs) addUnits(runs, unit);
  }
  return lines.map((line, i) => {
    const runs = touched[i];
    if (!runs) return line;
    return {
      productId: line.productId,
      unitPriceMinor: line.unitPriceMinor,
      quantity: line.quantity,
      units: toRuns(runs),
      // Units a buy-get used stay used at their new value (claimed-units.ts); no buy-get yet, nothing to carry.
      claimed: line.claimed.length === 0 ? line.claimed : claimedAfterTakes(line.claimed, takesOf[i] ?? []),
    };
  });
}

type EditableRuns = { values: number[]; counts: number[] };

/** A line's runs as two parallel arrays (value, count), to take units from and add them at their new value. */
function editableRuns(line: LineLeft): EditableRuns {
  const runs: EditableRuns = { values: [], counts: [] };
  for (const run of line.units) {
    runs.values.push(run.valueMinor);
    runs.counts.push(run.count);
  }
  return runs;
}

function overTaken(take: UnitTake, have: number): RangeError {
  return new RangeError(`takes ${take.count} units worth ${take.valueMinor} of line ${take.line}, which has ${have}`);
}

/** A take within what the line has at that value (`have`), and within what a unit is worth; else a module bug. */
function checkTake(take: UnitTake, have: number): void {
  if (!Number.isSafeInteger(take.count) || take.count < 0 || take.count > have) throw overTaken(take, have);
  if (!Number.isSafeInteger(take.offMinor) || take.offMinor < 0 || take.offMinor > take.valueMinor) {
    throw new RangeError(`takes ${take.offMinor} off a unit worth ${take.valueMinor}`);
  }
}

/** Units added to a line's runs at their value: to the run of that value, or as a new run. */
function addUnits(runs: EditableRuns, unit: { valueMinor: number; count: number }): void {
  const at = runs.values.indexOf(unit.valueMinor);
  if (at >= 0) runs.counts[at] = (runs.counts[at] ?? 0) + unit.count;
  else {
    runs.values.push(unit.valueMinor);
    runs.counts.push(unit.count);
  }
}

function toRuns(runs: { values: readonly number[]; counts: readonly number[] }): UnitRun[] {
  const units: UnitRun[] = [];
  for (let i = 0; i < runs.values.length; i++) {
    const count = runs.counts[i] ?? 0;
    if (count > 0) units.push({ valueMinor: runs.values[i] ?? 0, count });
  }
  return units.length > 1 ? units.sort((a, b) => a.valueMinor - b.valueMinor) : units;
}

/** Minor units a take removes from each line (index as the lines). */
export function takenPerLine(lineCount: number, takes: readonly UnitTake[]): number[] {
  const taken: number[] = [];
  for (let i = 0; i < lineCount; i++) taken.push(0);
  for (const take of takes) {
    taken[take.line] = addMinor(taken[take.line] ?? 0, multiplyMinor(take.offMinor, take.count));
  }
  return taken;
}

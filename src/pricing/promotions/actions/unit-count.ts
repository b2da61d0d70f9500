/** A count of units an action names (`max_units`, `buy_quantity`, `get_quantity`): a whole number of at least `min`. */
export function unitCount(count: number, rule: { what: string; min: number }): number {
  if (!Number.isSafeInteger(count) || count < rule.min) {
    throw new RangeError(`${rule.what} must be a whole number of at least ${rule.min}, not ${count}`);
  }
  return count;
}

/** `max_units`: null (every unit) or a count. */
export function maxUnits(count: number | null): number | null {
  return count === null ? null : unitCount(count, { what: 'max_units', min: 0 });
}

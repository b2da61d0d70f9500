import { percent, productScope, unitsOrNull } from '../kind-fields.js';

// Fields several action kinds share, described once.

/** The lines an action acts on; absent or null: every line. */
export const actsOn = productScope({
  description: 'Lines it acts on',
  label: 'Product ids it acts on',
  hint: 'Commas between; blank: every product',
});

export const discountPercent = percent({ label: 'Percent off', hint: 'Above 0, up to 100, at most 4 decimals' });

/** `max_units`: only this many units, the cheapest first. */
export const atMostUnits = unitsOrNull({
  description: 'Only this many units, the cheapest first; absent or null: every eligible unit',
  countDescription: 'At least 1',
  label: 'At most units',
  hint: 'The cheapest first; blank: every unit',
});

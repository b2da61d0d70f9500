import type { Answer } from '../../api/client';

/** A line of an edit, as its preview, its answer and the order's history of edits give it. */
export type EditLine = Answer<
  '/order/dashboard/api/orders/{order_alias}/edits/',
  'get'
>['items'][number]['lines'][number];

/** A line's change in words: "Mug - Blue: 1 → 2", "Notebook: added, 1 × 18.99 USD", "Mug - Blue: removed". */
export function editLineText(line: EditLine, currency: string): string {
  if (line.before === 0) return `${line.name}: added, ${line.after} × ${line.unit_price} ${currency}`;
  if (line.after === 0) return `${line.name}: removed`;
  return `${line.name}: ${line.before} → ${line.after}`;
}

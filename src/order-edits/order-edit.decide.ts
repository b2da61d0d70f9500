import { canSupply, isBuyable, sellableUnits, stockIsCounted, type ArchiveFacts } from '../catalog/availability.js';
import type { LineImageRow, LineOptionRow } from '../db/schema.js';
import type { OrderLineRow, OrderRow } from '../orders/orders.repository.js';
import type { PlacedLineBasis, PlacedOrderBasis } from '../pricing/order-as-placed.js';
import { pricingInputAsPlaced } from '../pricing/order-as-placed.js';
import { priceOrder } from '../pricing/pricing.calculator.js';
import type { PricedOrder } from '../pricing/pricing.types.js';
import { orderLessUnitsTakenOff, type StoredLine, type StoredOrder } from '../pricing/units-taken-off.js';
import { DomainError } from '../shared/errors.js';
import type { RoundingMode } from '../shared/money.js';

/**
 * What an order edit decides (issue #27 item 3), before anything is written: whether the order may change, its lines
 * after the change, the order priced again as placed (`pricingInputAsPlaced`: kept lines at their own price and tax
 * rate, the promotions in their terms at placement, shipping at its fee), and the stock each variant gives or takes.
 * Pure: the caller reads and locks the rows, then writes what this answers (order-edits.service.ts).
 */

/** The statuses in which an order's lines may change: none of it has left the store, and it is not cancelled. */
export const EDITABLE_STATUSES: readonly OrderRow['status'][] = ['pending', 'approved', 'processing'];

/** Most units one line of an edited order may hold (the cart's line maximum does not apply to an admin). */
export const MAX_EDITED_LINE_QUANTITY = 10_000;

/** A line change: the variant (by its alias) and the quantity the order should have of it; 0 removes the line. */
export interface LineChange {
  alias: string;
  quantity: number;
}

/** A variant an edit adds or changes, as the catalog has it now (read under lock), with its tax rate for the order. */
export interface EditedVariant extends ArchiveFacts {
  id: number;
  alias: string;
  productId: number;
  /** "Product - Variant", as order lines name what they sell. */
  name: string;
  /** What a line added for it keeps of the item (`soldItem`). */
  productName: string;
  variantName: string;
  sku: string | null;
  /** Its option values and image as a line keeps them (`optionsAsSold`; its first image, else its product's). */
  options: LineOptionRow[];
  image: LineImageRow | null;
  priceMinor: number;
  trackInventory: boolean;
  allowBackorder: boolean;
  stock: number;
  purchaseLimitPerOrder: number | null;
  /** The variant's tax class name (null: never taxed) and its rate for the order's delivery address. */
  taxClassName: string | null;
  taxRate: string;
}

/** One line of the order after the edit: an existing line (kept, changed or removed), or a new one. */
export type EditedLine =
  | { kind: 'kept'; line: OrderLineRow }
  | { kind: 'changed'; line: OrderLineRow; quantity: number }
  | { kind: 'removed'; line: OrderLineRow }
  | { kind: 'added'; variant: EditedVariant; quantity: number; stockReserved: boolean };

export interface EditDecision {
  lines: EditedLine[];
  priced: PricedOrder;
  /** Units each variant's stock changes by (negative: taken), for lines whose stock is counted; no zero entries. */
  stock: Map<number, number>;
  /** The promotions the order had that no longer apply (their conditions fail on the edited order). */
  droppedPromotionIds: number[];
  /** New total − old total, minor units: positive, the customer owes it; negative, it is owed back. */
  difference: number;
}

const refuse = (detail: string, field = 'lines') =>
  new DomainError('validation_error', { detail, errors: [{ field, message: detail }] });

/** Why an order may not be edited, or undefined when it may. */
export function editRefusal(
  order: Pick<OrderRow, 'alias' | 'status'> & { fulfilled: boolean },
): DomainError | undefined {
  if (!EDITABLE_STATUSES.includes(order.status)) {
    return new DomainError('order_not_editable', {
      detail: `order ${order.alias} is ${order.status}: only a pending, approved or processing order can be edited`,
    });
  }
  if (order.fulfilled) {
    return new DomainError('order_not_editable', {
      detail: `order ${order.alias} has a fulfilment: cancel it before editing the order's lines`,
    });
  }
  return undefined;
}

/** A line after the edit as pricing takes it: an existing line as the order kept it (`kept`), a new one as sold now. */
function lineBasis(line: EditedLine, kept: ReadonlyMap<string, PlacedLineBasis>): PlacedLineBasis | undefined {
  switch (line.kind) {
    case 'removed':
      return undefined;
    case 'added':
      return {
        alias: line.variant.alias,
        variantId: line.variant.id,
        productId: line.variant.productId,
        name: line.variant.name,
        quantity: line.quantity,
        unitPriceMinor: line.variant.priceMinor,
        taxClassName: line.variant.taxClassName,
        taxRate: line.variant.taxRate,
      };
    default: {
      const placed = kept.get(line.line.alias);
      if (!placed) throw new Error(`order line ${line.line.alias} is not in the order's basis`);
      return { ...placed, quantity: line.kind === 'changed' ? line.quantity : placed.quantity };
    }
  }
}

/** The stock a variant must still supply for `units` more, or the refusal. */
function takeStock(variant: EditedVariant, units: number): void {
  if (!isBuyable(variant)) {
    throw new DomainError('variant_unavailable', {
      detail: `variant ${variant.alias} is archived and cannot be added to an order`,
      extra: { product_variant_id: variant.id },
    });
  }
  if (!canSupply(variant, units)) {
    throw new DomainError('insufficient_stock', {
      detail: `only ${sellableUnits(variant)} of variant ${variant.alias} available; the edit needs ${units} more`,
      extra: { product_variant_id: variant.id, available: sellableUnits(variant) },
    });
  }
}

/**
 * Decides an edit of `order` (its lines `lines`, its kept basis `basis`) by `changes`, with the catalog rows of every
 * variant the changes name (`variants`, by alias). Throws the DomainError that refuses it.
 */
export function decideOrderEdit(input: {
  order: EditedOrder;
  lines: readonly OrderLineRow[];
  basis: PlacedOrderBasis;
  changes: readonly LineChange[];
  variants: ReadonlyMap<string, EditedVariant>;
  roundingMode: RoundingMode;
}): EditDecision {
  const { changes, variants } = input;
  const seen = new Set<string>();
  for (const change of changes) {
    if (seen.has(change.alias)) throw refuse(`variant ${change.alias} is named twice`);
    seen.add(change.alias);
    if (change.quantity > MAX_EDITED_LINE_QUANTITY)
      throw refuse(`a line holds at most ${MAX_EDITED_LINE_QUANTITY} units`, 'lines.quantity');
  }
  const wanted = new Map(changes.map((c) => [c.alias, c.quantity]));
  const stock = new Map<number, number>();
  const move = (variantId: number | null, units: number) => {
    if (variantId === null || units === 0) return;
    const next = (stock.get(variantId) ?? 0) + units;
    if (next === 0) stock.delete(variantId);
    else stock.set(variantId, next);
  };

  const edited: EditedLine[] = input.lines.map((line): EditedLine => {
    const quantity = wanted.get(line.alias);
    if (quantity === undefined || quantity === line.quantity) return { kind: 'kept', line };
    const more = quantity - line.quantity;
    const variant = variants.get(line.alias);
    if (more > 0) {
      if (!variant) throw refuse(`variant ${line.alias} is no longer in the catalog: its line cannot grow`);
      if (variant.purchaseLimitPerOrder !== null && quantity > variant.purchaseLimitPerOrder)
        throw purchaseLimit(variant);
      if (line.stockReserved) takeStock(variant, more);
    }
    if (line.stockReserved) move(line.variantId, -more);
    return quantity === 0 ? { kind: 'removed', line } : { kind: 'changed', line, quantity };
  });
  const present = new Set(input.lines.map((l) => l.alias));
  for (const change of changes) {
    if (present.has(change.alias) || change.quantity === 0) continue;
    const variant = variants.get(change.alias);
    if (!variant) {
      throw new DomainError('unknown_variant', {
        detail: `no variant ${change.alias}`,
        extra: { alias: change.alias },
      });
    }
    if (variant.purchaseLimitPerOrder !== null && change.quantity > variant.purchaseLimitPerOrder)
      throw purchaseLimit(variant);
    takeStock(variant, change.quantity);
    const counted = stockIsCounted(variant);
    if (counted) move(variant.id, -change.quantity);
    edited.push({ kind: 'added', variant, quantity: change.quantity, stockReserved: counted });
  }
  if (edited.every((l) => l.kind === 'kept')) throw refuse('the edit changes nothing');
  if (edited.every((l) => l.kind === 'removed')) {
    throw refuse('an order keeps at least one line: cancel the order instead of removing every line');
  }

  const kept = new Map(input.basis.lines.map((l) => [l.alias, l]));
  const basisLines = edited.map((l) => lineBasis(l, kept)).filter((l) => l !== undefined);
  const repriced = priceOrder(pricingInputAsPlaced({ ...input.basis, lines: basisLines }, input.roundingMode));
  const applied = new Set(repriced.promotions.map((p) => p.id));
  const droppedPromotionIds = input.basis.promotions.map((p) => p.id).filter((id) => !applied.has(id));
  const priced =
    takesUnitsOffOnly(edited) && droppedPromotionIds.length === 0
      ? orderLessUnitsTakenOff({
          order: storedOrder(input.order),
          lines: input.lines.map(storedLine),
          keep: new Map(edited.map((l) => [l.kind === 'added' ? l.variant.alias : l.line.alias, keptUnits(l)])),
          priced: repriced,
        })
      : repriced;
  return { lines: edited, priced, stock, droppedPromotionIds, difference: priced.totalMinor - input.order.total };
}

/**
 * Whether an edit only takes units off lines the order has (lowers quantities, removes lines). Such an edit gives back
 * for them what a return of them would (`orderLessUnitsTakenOff`), so the same unit refunds the same through either
 * path; an edit that adds or grows a line, or after which a promotion no longer applies, prices the order again.
 */
function takesUnitsOffOnly(lines: readonly EditedLine[]): boolean {
  return lines.every(
    (l) => l.kind === 'kept' || l.kind === 'removed' || (l.kind === 'changed' && l.quantity < l.line.quantity),
  );
}

const keptUnits = (l: EditedLine): number =>
  l.kind === 'removed' ? 0 : l.kind === 'changed' || l.kind === 'added' ? l.quantity : l.line.quantity;

const storedLine = (l: OrderLineRow): StoredLine => ({
  alias: l.alias,
  quantity: l.quantity,
  unitPrice: l.unitPrice,
  subtotal: l.subtotal,
  discount: l.discount,
  tax: l.tax,
  total: l.total,
  adjustments: l.adjustments.map((a) => ({ promotionId: a.promotion_id, amountMinor: a.amount })),
});

const storedOrder = (o: EditedOrder): StoredOrder => ({
  ...o,
  promotions: o.promotions.map((p) => ({ id: p.id, amountMinor: p.amount })),
});

/** The order's figures an edit reads. */
type EditedOrder = Pick<
  OrderRow,
  | 'alias'
  | 'total'
  | 'pricesIncludeTax'
  | 'subtotal'
  | 'discount'
  | 'shippingFee'
  | 'shippingDiscount'
  | 'shippingTax'
  | 'estimatedTax'
  | 'totalItems'
  | 'promotions'
>;

const purchaseLimit = (variant: EditedVariant) =>
  new DomainError('purchase_limit_exceeded', {
    detail: `at most ${variant.purchaseLimitPerOrder} of variant ${variant.alias} can be bought in one order`,
    extra: { product_variant_id: variant.id, limit: variant.purchaseLimitPerOrder },
  });

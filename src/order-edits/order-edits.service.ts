import type { Db, Tx } from '../db/client.js';
import { claimFor, rememberResponse, storedResponse } from '../orders/idempotency.js';
import { type Outbox, recordEvents } from '../events/outbox.js';
import { orderEvents } from '../orders/order-events.js';
import { ledgerOfOrder, orderPaymentStatus } from '../orders/order-ledger.js';
import { placedOrderBasis } from '../orders/order-pricing-basis.js';
import {
  linesOf,
  lockOrder,
  type OrderLineRow,
  type OrderRow,
  releasePromotionUses,
} from '../orders/orders.repository.js';
import type { PricedOrder } from '../pricing/pricing.types.js';
import { DomainError } from '../shared/errors.js';
import { currencyFormat, formatDecimal, MoneyFormatError, type RoundingMode } from '../shared/money.js';
import {
  type MarketPricing,
  priceInMarket,
  priceRoundingOf,
  type StoredPriceRounding,
} from '../markets/market-price.js';
import { presentEdit } from './order-edit.presenter.js';
import {
  decideOrderEdit,
  type EditDecision,
  type EditedVariant,
  editRefusal,
  type LineChange,
} from './order-edit.decide.js';
import {
  editLines,
  insertOrderEdit,
  lockEditedVariants,
  lockOrderPromotions,
  moveStock,
  orderMarketPricing,
  saveEditedOrder,
  writeEditedLines,
} from './order-edits.repository.js';

export interface OrderEditDeps {
  db: Db;
  outbox: Outbox;
  /**
   * STORE_CURRENCY: the currency of the catalog's prices; a line added to an order in another is priced in its market.
   */
  storeCurrency: string;
  roundingMode: RoundingMode;
}

export interface OrderEditRequest {
  alias: string;
  changes: readonly LineChange[];
  note: string;
  /**
   * The total the admin saw in the preview, decimal text in the order's currency: a different one is 409
   * total_changed, nothing written.
   */
  expectedTotal?: string;
  /** Only say what the edit would do; write nothing. */
  preview: boolean;
  editedBy: number | null;
}

export interface OrderEditOutcome {
  before: OrderRow;
  after: OrderRow;
  lines: OrderLineRow[];
  decision: EditDecision;
  editId: number | null;
}

const notFound = (alias: string) => new DomainError('order_not_found', { detail: `order ${alias} not found` });

/** The columns of an order an edit changes: its figures as priced again, and its payment status. */
type EditedColumns = Pick<
  OrderRow,
  | 'subtotal'
  | 'discount'
  | 'discountName'
  | 'promotions'
  | 'promoCode'
  | 'shippingDiscount'
  | 'shippingTax'
  | 'estimatedTax'
  | 'totalWithoutTax'
  | 'total'
  | 'totalItems'
  | 'paymentStatus'
>;

/** The order's columns as the edit priced it (its ledger's totals stay: no payment changed). */
function editedColumns(order: OrderRow, priced: PricedOrder): EditedColumns {
  const amounts = new Map(priced.promotions.map((p) => [p.id, p.amountMinor]));
  const promotions = order.promotions.flatMap((p) => {
    const amount = amounts.get(p.id);
    return amount === undefined ? [] : [{ ...p, amount }];
  });
  const figures = {
    subtotal: priced.subtotalMinor,
    discount: priced.discountMinor,
    discountName: priced.discountName,
    promotions,
    promoCode: promotions.some((p) => p.code !== null) ? order.promoCode : null,
    shippingDiscount: priced.shippingDiscountMinor,
    shippingTax: priced.shippingTaxMinor,
    estimatedTax: priced.estimatedTaxMinor,
    totalWithoutTax: priced.totalWithoutTaxMinor,
    total: priced.totalMinor,
    totalItems: priced.totalItems,
  };
  return { ...figures, paymentStatus: orderPaymentStatus(ledgerOfOrder({ ...order, total: figures.total })) };
}

/**
 * Edits an order's lines (issue #27 item 3), or says what the edit would do (`preview`): in one transaction, the order
 * locked, then its promotions, then the variants named (the order placements lock them in), the edit decided
 * (`decideOrderEdit`), and, unless previewing, the lines, the order's figures and payment status, the stock, the
 * promotion uses of promotions that no longer apply, the edit's history row and the order.edited event written.
 */
export function editOrder(deps: OrderEditDeps, request: OrderEditRequest): Promise<OrderEditOutcome> {
  return deps.outbox.jobs.transaction(deps.db, async (tx) => {
    const order = await lockOrder(tx, request.alias);
    if (!order) throw notFound(request.alias);
    return editLocked(tx, deps, { request, order });
  });
}

/** An edit's answer (`presentEdit` and the edit's id), kept for its Idempotency-Key. */
export type EditAnswer = ReturnType<typeof presentEdit> & { id: number };

/**
 * Edits an order's lines once per Idempotency-Key: the same request again with its key answers what the first edit
 * answered (kept in the edit's transaction, under the order's lock, so a retry racing its first attempt waits for it),
 * with the order as it is now; nothing is edited again.
 */
export function editOrderOnce(
  deps: OrderEditDeps,
  request: Omit<OrderEditRequest, 'preview'> & { requestKey?: string },
): Promise<{ answer: EditAnswer; after: OrderRow }> {
  return deps.outbox.jobs.transaction(deps.db, async (tx) => {
    const order = await lockOrder(tx, request.alias);
    if (!order) throw notFound(request.alias);
    const claim = claimFor({
      scope: `order-edit:${order.alias}`,
      requestKey: request.requestKey,
      operation: 'edit-order',
      payload: { changes: request.changes, note: request.note, expected_total: request.expectedTotal ?? null },
    });
    const earlier = claim && (await storedResponse(tx, claim));
    // An answer kept before edits said their currency gets the order's, which it was in.
    if (earlier) {
      const kept = earlier.body as Omit<EditAnswer, 'currency'> & { currency?: string };
      return { answer: { ...kept, currency: kept.currency ?? order.currency }, after: order };
    }
    const outcome = await editLocked(tx, deps, { request: { ...request, preview: false }, order });
    const answer = { ...presentEdit(outcome), id: outcome.editId ?? 0 };
    if (claim) await rememberResponse(tx, claim, { status: 201, body: answer });
    return { answer, after: outcome.after };
  });
}

/** `expected_total` read in the order's currency (its precision: `"12.50"` is refused for a yen order). */
function parseExpectedTotal(text: string | undefined, currency: string): number | undefined {
  if (text === undefined) return undefined;
  try {
    return currencyFormat(currency).parse(text);
  } catch (err) {
    if (!(err instanceof MoneyFormatError)) throw err;
    throw new DomainError('validation_error', {
      detail: `expected_total: ${err.message} (${currency})`,
      errors: [{ field: 'expected_total', message: err.message }],
    });
  }
}

/**
 * A line an edit adds to an order of another currency than the store's is priced as its placement would have priced
 * it (decision 0031): the variant's explicit price in the order's currency, else its price converted at the rate the
 * order locked when it was placed (never today's), rounded once and then by its market's rule, as the catalog does
 * (`priceInMarket`). An order in another currency without a market (none is placed so) can only change the quantities
 * of its own lines: there is no rule to price a new one with.
 */
async function pricedInOrderMarket(
  tx: Tx,
  deps: Pick<OrderEditDeps, 'storeCurrency' | 'roundingMode'>,
  edit: {
    order: OrderRow;
    lines: readonly OrderLineRow[];
    changes: readonly LineChange[];
    variants: Map<string, EditedVariant>;
  },
): Promise<Map<string, EditedVariant>> {
  const { order, variants } = edit;
  if (order.currency === deps.storeCurrency) return variants;
  const kept = new Set(edit.lines.map((l) => l.alias));
  const added = edit.changes.findIndex((c) => !kept.has(c.alias) && c.quantity > 0);
  if (added < 0) return variants;
  const market = await orderMarketPricing(tx, { order, variantIds: [...variants.values()].map((v) => v.id) });
  if (market === null || order.exchangeRate === null) {
    const message =
      `the order is in ${order.currency} and the catalog's prices in ${deps.storeCurrency}: only the quantities `
      + 'of its own lines can change';
    throw new DomainError('validation_error', {
      detail: `lines[${added}]: ${message}`,
      errors: [{ field: `lines[${added}].alias`, message }],
    });
  }
  const pricing: MarketPricing = {
    currency: order.currency,
    conversion: {
      conversion: { from: deps.storeCurrency, to: order.currency, rate: order.exchangeRate, mode: deps.roundingMode },
      rule: priceRoundingOf(canonicalRule(market.rule), order.currency),
    },
  };
  return new Map(
    [...variants].map(([alias, v]) => [
      alias,
      {
        ...v,
        priceMinor: priceInMarket({ amount: v.priceMinor, compareAt: null }, market.explicit.get(v.id), pricing).amount,
      },
    ]),
  );
}

/** A stored rule's numerics ("100.0000") as the currency's precision reads them ("100"). */
const canonicalRule = (rule: StoredPriceRounding): StoredPriceRounding => ({
  step: rule.step === null ? null : formatDecimal(rule.step),
  ending: formatDecimal(rule.ending),
  direction: rule.direction,
});

/** The edit (or its preview) of an order locked in `tx`. */
async function editLocked(
  tx: Tx,
  deps: OrderEditDeps,
  input: { request: OrderEditRequest; order: OrderRow },
): Promise<OrderEditOutcome> {
  const { request, order } = input;
  const refusal = editRefusal({ ...order, fulfilled: order.fulfillmentStatus !== 'unfulfilled' });
  if (refusal) throw refusal;
  // Every amount of the edit is in the order's currency, which need not be the store's (a market's order).
  const money = currencyFormat(order.currency);
  const expectedTotal = parseExpectedTotal(request.expectedTotal, order.currency);
  const lines = await linesOf(tx, order.id);
  const basis = placedOrderBasis(order, lines);
  if (!basis) {
    throw new DomainError('order_not_editable', {
      detail:
        `order ${order.alias} was placed before orders kept their promotions' terms: it cannot be priced again `
        + 'exactly, so it cannot be edited',
    });
  }
  await lockOrderPromotions(tx, order);
  const variants = await pricedInOrderMarket(tx, deps, {
    order,
    lines,
    changes: request.changes,
    variants: await lockEditedVariants(tx, { aliases: [...new Set([...request.changes.map((c) => c.alias)])], order }),
  });
  const decision = decideOrderEdit({
    order,
    lines,
    basis,
    changes: request.changes,
    variants,
    roundingMode: deps.roundingMode,
  });
  const columns = editedColumns(order, decision.priced);
  const after: OrderRow = { ...order, ...columns };
  if (expectedTotal !== undefined && expectedTotal !== after.total) {
    throw new DomainError('total_changed', {
      detail:
        `the edited total is ${money.format(after.total)} ${order.currency}, `
        + `not ${money.format(expectedTotal)}: nothing was changed`,
      extra: { total: money.format(after.total) },
    });
  }
  if (request.preview) return { before: order, after, lines, decision, editId: null };

  await releasePromotionUses(tx, order.id, decision.droppedPromotionIds);
  await moveStock(tx, decision.stock);
  await writeEditedLines(tx, { orderId: order.id, lines: decision.lines, priced: decision.priced });
  const saved = await saveEditedOrder(tx, order.id, columns);
  const edit = await insertOrderEdit(tx, {
    orderId: order.id,
    editedBy: request.editedBy,
    note: request.note,
    lines: editLines(decision.lines),
    totalBefore: order.total,
    totalAfter: saved.total,
  });
  const savedLines = await linesOf(tx, order.id);
  await recordEvents(tx, deps.outbox, orderEvents(['order.edited'], saved, savedLines));
  return { before: order, after: saved, lines: savedLines, decision, editId: edit.id };
}

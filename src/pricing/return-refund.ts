import { multiplyMinor, subtractMinor, sumMinor } from '../shared/money.js';

/**
 * What returned units refund (issue #27 item 2): what the customer actually paid for them, from the figures the order
 * stored at placement, never from today's prices, rates or promotions. Pure, integer minor units, nothing rounded:
 * every share is a whole-unit split of a stored figure. docs/pricing.md, "What a returned unit refunds".
 */

/**
 * An order line's figures as `order_lines` stores them (named as its columns, so a stored row goes in as it is):
 * minor units of the order's currency. With prices including tax, `subtotal` and `total` are gross and `tax` is the
 * part of `total` that is tax; otherwise `total` = subtotal − discount + tax.
 */
export interface StoredLineFigures {
  quantity: number;
  unitPrice: number;
  /** unitPrice × quantity. */
  subtotal: number;
  /** Everything promotions (buy-gets included) or an admin's discount took off the line. */
  discount: number;
  tax: number;
  total: number;
}

/** The units of one order line given back now. */
export interface LineReturn {
  line: StoredLineFigures;
  /** Units returned now (0 is allowed: the line is then refunded nothing). */
  quantity: number;
  /**
   * Units of this line already taken by earlier returns, refunded with this function on the same figures. Returns take
   * the line's units in order, so the earlier ones are units 1..returnedBefore and these the next `quantity`.
   */
  returnedBefore: number;
}

/** The order's shipping figures (named as `orders` columns) and what of them earlier refunds gave back. */
export interface ShippingReturn {
  shippingFee: number;
  /** What promotions took off the fee (part of the order's `discount`). */
  shippingDiscount: number;
  /** Tax on the fee after its discount: added to the total on net prices, inside the fee on gross prices. */
  shippingTax: number;
  /**
   * The shipping given back by earlier refunds: the sum of their `ShippingRefund`s (all zero when none did). Figures,
   * not an amount: free shipping is paid 0, so only its refunded fee and discount tell whether it went back already.
   */
  refundedBefore: ShippingRefunded;
}

/** Shipping figures already refunded. */
export interface ShippingRefunded {
  feeMinor: number;
  discountMinor: number;
  taxMinor: number;
}

export interface ReturnRefundInput {
  /** The order's `prices_include_tax`. */
  pricesIncludeTax: boolean;
  lines: readonly LineReturn[];
  /** Refund the shipping as well (what is left of it); null keeps it. */
  shipping: ShippingReturn | null;
}

/** What one line's returned units refund. */
export interface LineRefund {
  /** Units refunded. */
  quantity: number;
  /** unit price × units: the goods before discount (gross on prices including tax). */
  goodsMinor: number;
  /** The units' share of the line's discount. */
  discountMinor: number;
  /** The units' share of the line's tax: added on net prices, the part of `amountMinor` that is tax on gross prices. */
  taxMinor: number;
  /** What goes back to the customer: goods − discount, + tax on net prices. */
  amountMinor: number;
}

/** What refunding the shipping gives back; all zero when it was refunded before. */
export interface ShippingRefund {
  feeMinor: number;
  discountMinor: number;
  taxMinor: number;
  /** fee − discount, + tax on net prices. */
  amountMinor: number;
}

/**
 * A return's refund, with the order's figures of SPEC section 6 for it: goods − discount + shipping fee (+ tax on net
 * prices) = amount. Returning every unit and the shipping gives back exactly the order's figures.
 */
export interface ReturnRefund {
  /** One per line of the input, in its order. */
  lines: LineRefund[];
  /** Null when shipping is not refunded. */
  shipping: ShippingRefund | null;
  goodsMinor: number;
  shippingFeeMinor: number;
  /** Lines' discount shares + the shipping discount refunded. */
  discountMinor: number;
  /** Lines' tax shares + the shipping tax refunded. */
  taxMinor: number;
  /** What the customer gets back. */
  amountMinor: number;
}

/** A line asked to give back more units than it has left. */
export interface OverReturnedLine {
  /** Its place in `input.lines`. */
  index: number;
  bought: number;
  returnedBefore: number;
  returning: number;
}

/** The refund, or the lines asked to return more than was bought (a 409/422 for the caller, naming the figures). */
export type ReturnRefundResult =
  | { ok: true; refund: ReturnRefund }
  | { ok: false; reason: 'more_than_bought'; detail: string; lines: OverReturnedLine[] };

/**
 * What returning these units (and the shipping, when asked) refunds. Each unit of a line carries an equal share of the
 * line's discount and of its tax, split by largest remainder over the line's units in a fixed order (units 1, 2, … get
 * the minor units left over); returns take a line's units in that order. So any sequence of partial returns of a line
 * adds up exactly to its stored discount, tax and total, and never beyond. A buy-get discount is spread the same way:
 * a returned unit is neither "the free one" nor a full-price one, it gives back its even share of what the line paid.
 *
 * Returning more units than a line has left is refused as a value. Throws RangeError only on figures no stored order
 * has (a negative amount, a total that is not subtotal − discount (+ tax), more of a shipping figure refunded
 * before than the order has).
 */
export function refundForReturnedUnits(input: ReturnRefundInput): ReturnRefundResult {
  const over: OverReturnedLine[] = [];
  input.lines.forEach(({ line, quantity, returnedBefore }, index) => {
    checkLine(line, input.pricesIncludeTax);
    wholeUnits(quantity, 'units returned');
    wholeUnits(returnedBefore, 'units returned before');
    if (returnedBefore + quantity > line.quantity) {
      over.push({ index, bought: line.quantity, returnedBefore, returning: quantity });
    }
  });
  if (over.length > 0) return { ok: false, reason: 'more_than_bought', detail: overReturnDetail(over), lines: over };

  const lines = input.lines.map((entry) => lineRefund(entry, input.pricesIncludeTax));
  const shipping = input.shipping ? shippingRefund(input.shipping, input.pricesIncludeTax) : null;
  const shippingParts = shipping ? [shipping] : [];
  const refund: ReturnRefund = {
    lines,
    shipping,
    goodsMinor: sumMinor(lines.map((l) => l.goodsMinor)),
    shippingFeeMinor: shipping?.feeMinor ?? 0,
    discountMinor: sumMinor([...lines, ...shippingParts].map((part) => part.discountMinor)),
    taxMinor: sumMinor([...lines, ...shippingParts].map((part) => part.taxMinor)),
    amountMinor: sumMinor([...lines, ...shippingParts].map((part) => part.amountMinor)),
  };
  return { ok: true, refund };
}

/**
 * What the first `units` of a line's `quantity` units carry of `amount` (its discount or its tax) when the amount is
 * split over the units by largest remainder: each unit gets ⌊amount / quantity⌋, and the amount mod quantity minor
 * units left over go one each to units 1, 2, … (equal weights leave equal remainders, and `allocate` gives ties to the
 * lower index). In closed form, so a line of 10,000 units builds no array: units × ⌊a/q⌋ + min(units, a mod q).
 */
function shareOfFirstUnits(amount: number, units: { first: number; of: number }): number {
  let each = Math.floor(amount / units.of);
  let leftOver = amount - each * units.of;
  // The division is a double: near 2^53 its floor may be one off, put it right in integers (as `allocate` does).
  if (leftOver < 0) {
    each -= 1;
    leftOver += units.of;
  } else if (leftOver >= units.of) {
    each += 1;
    leftOver -= units.of;
  }
  return multiplyMinor(each, units.first) + Math.min(units.first, leftOver);
}

function lineRefund(entry: LineReturn, pricesIncludeTax: boolean): LineRefund {
  const { line, quantity, returnedBefore } = entry;
  const shareOf = (amount: number) =>
    shareOfFirstUnits(amount, { first: returnedBefore + quantity, of: line.quantity })
    - shareOfFirstUnits(amount, { first: returnedBefore, of: line.quantity });
  const goods = multiplyMinor(line.unitPrice, quantity);
  const discount = shareOf(line.discount);
  const tax = shareOf(line.tax);
  const paid = subtractMinor(goods, discount);
  return {
    quantity,
    goodsMinor: goods,
    discountMinor: discount,
    taxMinor: tax,
    amountMinor: pricesIncludeTax ? paid : sumMinor([paid, tax]),
  };
}

/**
 * What is left of the shipping the customer paid: each of its figures less what earlier refunds gave back of it. The
 * refunds made here take all that is left, so shipping goes back once; a second ask refunds zero.
 */
function shippingRefund(s: ShippingReturn, pricesIncludeTax: boolean): ShippingRefund {
  const left = (figure: number, before: number, what: string) => {
    nonNegative(figure, what);
    nonNegative(before, `${what} refunded before`);
    if (before > figure)
      throw new RangeError(`${what} refunded before (${before}) is more than the order's (${figure})`);
    return subtractMinor(figure, before);
  };
  const fee = left(s.shippingFee, s.refundedBefore.feeMinor, 'shipping fee');
  const discount = left(s.shippingDiscount, s.refundedBefore.discountMinor, 'shipping discount');
  const tax = left(s.shippingTax, s.refundedBefore.taxMinor, 'shipping tax');
  const afterDiscount = subtractMinor(fee, discount);
  const amount = pricesIncludeTax ? afterDiscount : sumMinor([afterDiscount, tax]);
  if (afterDiscount < 0 || (pricesIncludeTax && tax > afterDiscount)) {
    throw new RangeError(`shipping left to refund is not a refund: fee ${fee}, discount ${discount}, tax ${tax}`);
  }
  return { feeMinor: fee, discountMinor: discount, taxMinor: tax, amountMinor: amount };
}

/** Refuses figures no priced order stores: the refund could not add up to them. */
function checkLine(line: StoredLineFigures, pricesIncludeTax: boolean): void {
  if (!Number.isSafeInteger(line.quantity) || line.quantity <= 0) {
    throw new RangeError(`line quantity must be a positive whole number: ${line.quantity}`);
  }
  for (const what of ['unitPrice', 'subtotal', 'discount', 'tax', 'total'] as const) nonNegative(line[what], what);
  if (multiplyMinor(line.unitPrice, line.quantity) !== line.subtotal) {
    throw new RangeError(`line subtotal ${line.subtotal} is not ${line.unitPrice} × ${line.quantity}`);
  }
  if (line.discount > line.subtotal) throw new RangeError(`line discount ${line.discount} exceeds its subtotal`);
  const paid = subtractMinor(line.subtotal, line.discount);
  const total = pricesIncludeTax ? paid : sumMinor([paid, line.tax]);
  if (line.total !== total) {
    throw new RangeError(
      `line total ${line.total} is not subtotal − discount${pricesIncludeTax ? '' : ' + tax'} (${total})`,
    );
  }
  if (pricesIncludeTax && line.tax > line.total) throw new RangeError(`line tax ${line.tax} exceeds its gross total`);
}

function nonNegative(amount: number, what: string): void {
  if (!Number.isSafeInteger(amount) || amount < 0) {
    throw new RangeError(`${what} must be a non-negative whole number of minor units: ${amount}`);
  }
}

function wholeUnits(count: number, what: string): void {
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`${what} must be a whole number ≥ 0: ${count}`);
}

function overReturnDetail(over: readonly OverReturnedLine[]): string {
  return over
    .map(
      (l) =>
        `line ${l.index + 1}: ${l.returning} units to return and ${l.returnedBefore} returned before, `
        + `but ${l.bought} were bought (${Math.max(0, l.bought - l.returnedBefore)} left to return)`,
    )
    .join('; ');
}

import { currencyExponent } from '../shared/currency.js';
import {
  type RoundingMode,
  allocate,
  compareDecimal,
  formatDecimal,
  formatMinor,
  multiplyByRatio,
  multiplyMinor,
  parseDecimal,
  percentOf,
  subtractMinor,
  sumMinor,
} from '../shared/money.js';
import type {
  PricedLine,
  PricedOrder,
  PricingDiscount,
  PricingInput,
  PricingLine,
  PricingShipping,
  TaxDetail,
} from './pricing.types.js';
import { orderWeightGrams, shippingFeeForWeight } from './shipping-rate.selector.js';
import { canonicalRate } from './tax-rate.selector.js';

/**
 * Prices an order (SPEC section 6), the one function behind both estimate and placement. Pure:
 * the same input always gives the same figures, to the minor unit. Throws RangeError only on
 * input no caller should build (negative prices, fractional quantities, a malformed rate, sums
 * beyond the safe integer range); business failures are settled before (promo eligibility,
 * shipping availability).
 */
export function priceOrder(input: PricingInput): PricedOrder {
  const { config } = input;
  const mode = config.roundingMode;
  const exponent = currencyExponent(config.currency);
  const lines = mergeLinesByAlias(input.lines);
  const subtotals = lines.map((line) => multiplyMinor(line.unitPriceMinor, line.quantity));
  const subtotal = sumMinor(subtotals);

  const discount = orderDiscount({ discount: input.discount, lines, subtotals, mode });
  const lineDiscounts = discount.amount === 0 ? lines.map(() => 0) : allocate(discount.amount, discount.weights);

  const priced: PricedLine[] = lines.map((line, i) => {
    const lineSubtotal = subtotals[i] ?? 0;
    const lineDiscount = lineDiscounts[i] ?? 0;
    const rate = line.taxClass ? input.taxRates.get(line.taxClass.id) : undefined;
    const taxRate = rate === undefined ? '0' : canonicalRate(rate);
    const taxable = subtractMinor(lineSubtotal, lineDiscount);
    const tax = taxOn(taxable, { rate: taxRate, inclusive: config.pricesIncludeTax, mode });
    return {
      alias: line.alias,
      variantId: line.variantId,
      productId: line.productId,
      name: line.name,
      quantity: line.quantity,
      unitPriceMinor: line.unitPriceMinor,
      subtotalMinor: lineSubtotal,
      discountMinor: lineDiscount,
      taxClass: line.taxClass,
      taxRate,
      taxMinor: tax,
      totalMinor: config.pricesIncludeTax ? taxable : sumMinor([taxable, tax]),
    };
  });

  const weightGrams = orderWeightGrams(lines);
  const shippingFee = input.discount?.type === 'free_shipping' ? 0 : shippingFeeFor(input.shipping, weightGrams, mode);
  const shippingTaxRate = config.shippingTaxable && input.shipping ? shippingRateFor(input, priced) : null;
  const shippingTax =
    shippingTaxRate === null
      ? 0
      : taxOn(shippingFee, { rate: shippingTaxRate, inclusive: config.pricesIncludeTax, mode });

  const estimatedTax = sumMinor([...priced.map((line) => line.taxMinor), shippingTax]);
  const linesTotal = sumMinor(priced.map((line) => line.totalMinor));
  const total = config.pricesIncludeTax
    ? sumMinor([linesTotal, shippingFee])
    : sumMinor([linesTotal, shippingFee, shippingTax]);

  return {
    currency: config.currency,
    pricesIncludeTax: config.pricesIncludeTax,
    lines: priced,
    totalItems: sumMinor(lines.map((line) => line.quantity)),
    weightGrams,
    subtotalMinor: subtotal,
    discountMinor: discount.amount,
    discountName: discountName(input.discount, { currency: config.currency, exponent }),
    promoCode: input.discount && input.discount.type !== 'custom' ? input.discount.code : null,
    shippingFeeMinor: shippingFee,
    shippingName: input.shipping
      ? input.shipping.type === 'rate'
        ? input.shipping.methodName
        : input.shipping.name
      : null,
    shippingTaxRate,
    shippingTaxMinor: shippingTax,
    estimatedTaxMinor: estimatedTax,
    totalWithoutTaxMinor: subtractMinor(total, estimatedTax),
    totalMinor: total,
    taxDetails: taxDetails(
      priced,
      shippingTaxRate === null || shippingFee === 0 ? null : { rate: shippingTaxRate, tax: shippingTax },
    ),
  };
}

/**
 * Lines with the same alias become one line with the summed quantity, in the order of first
 * appearance. Two lines with one alias but a different variant or price are a caller bug.
 */
export function mergeLinesByAlias(lines: readonly PricingLine[]): PricingLine[] {
  const merged = new Map<string, PricingLine>();
  for (const line of lines) {
    if (!Number.isSafeInteger(line.quantity) || line.quantity <= 0) {
      throw new RangeError(`quantity of ${line.alias} must be a positive whole number`);
    }
    if (!Number.isSafeInteger(line.unitPriceMinor) || line.unitPriceMinor < 0) {
      throw new RangeError(`unit price of ${line.alias} must be a non-negative whole number of minor units`);
    }
    const seen = merged.get(line.alias);
    if (!seen) {
      merged.set(line.alias, { ...line });
    } else if (seen.variantId !== line.variantId || seen.unitPriceMinor !== line.unitPriceMinor) {
      throw new RangeError(`alias ${line.alias} names two different variants or prices`);
    } else {
      seen.quantity = sumMinor([seen.quantity, line.quantity]);
    }
  }
  return [...merged.values()];
}

/**
 * The order discount, rounded once and capped at the eligible subtotal, with the weights its
 * allocation uses: the subtotal of each eligible line, 0 for the others.
 */
function orderDiscount(input: {
  discount: PricingDiscount | null;
  lines: readonly PricingLine[];
  subtotals: readonly number[];
  mode: RoundingMode;
}): { amount: number; weights: number[] } {
  const { discount, lines, subtotals, mode } = input;
  const none = { amount: 0, weights: lines.map(() => 0) };
  if (!discount || discount.type === 'free_shipping') return none;
  const scope = discount.type === 'custom' ? null : discount.applicableProductIds;
  const inScope = scope && scope.length > 0 ? new Set(scope) : null;
  const weights = lines.map((line, i) => (!inScope || inScope.has(line.productId) ? (subtotals[i] ?? 0) : 0));
  const eligible = sumMinor(weights);
  let wanted: number;
  switch (discount.type) {
    case 'percentage': {
      const percent = parseDecimal(discount.value, 4);
      if (percent.units < 0n) throw new RangeError(`discount percentage ${discount.value} is negative`);
      wanted = percentOf(eligible, percent, mode);
      break;
    }
    case 'fixed':
      wanted = nonNegativeMinor(discount.value, 'fixed discount');
      break;
    case 'custom':
      wanted = nonNegativeMinor(discount.amountMinor, 'custom discount');
      break;
  }
  return { amount: Math.min(wanted, eligible), weights };
}

/**
 * Tax on an amount at a percent rate, rounded once. Net prices: amount × rate / 100. Gross prices:
 * the tax inside the amount, amount × rate / (100 + rate); the net part is then the amount minus
 * that, so net + tax is always exactly the gross amount.
 */
function taxOn(amount: number, input: { rate: string; inclusive: boolean; mode: RoundingMode }): number {
  const rate = parseDecimal(input.rate);
  if (rate.units === 0n) return 0;
  if (!input.inclusive) return percentOf(amount, rate, input.mode);
  const hundred = 100n * 10n ** BigInt(rate.scale);
  return multiplyByRatio(amount, { numerator: rate.units, denominator: hundred + rate.units }, input.mode);
}

function shippingFeeFor(shipping: PricingShipping | null, weightGrams: string, mode: RoundingMode): number {
  if (!shipping) return 0;
  if (shipping.type === 'custom') return nonNegativeMinor(shipping.amountMinor, 'custom shipping amount');
  nonNegativeMinor(shipping.rate.baseRateMinor, 'base rate');
  nonNegativeMinor(shipping.rate.perKgRateMinor, 'per-kg rate');
  return shippingFeeForWeight(shipping.rate, weightGrams, mode);
}

/**
 * The rate given for shipping, else the rate of the method's tax class for the address, else the
 * highest rate applied to any line; null (untaxed) if none, or if the class's rate there is 0. A
 * class without a rate at the address falls back to the line rates, so naming a class for the
 * places that need one never untaxes shipping elsewhere; a 0 % rate of the class untaxes it.
 */
function shippingRateFor(input: PricingInput, lines: readonly PricedLine[]): string | null {
  if (input.shippingTaxRate != null) return canonicalRate(input.shippingTaxRate);
  const classId = input.shipping?.type === 'rate' ? (input.shipping.taxClassId ?? null) : null;
  const classRate = classId === null ? undefined : input.taxRates.get(classId);
  if (classRate !== undefined) {
    const rate = canonicalRate(classRate);
    return rate === '0' ? null : rate;
  }
  let highest: string | null = null;
  for (const line of lines) {
    if (line.taxRate !== '0' && (highest === null || compareDecimal(line.taxRate, highest) > 0)) highest = line.taxRate;
  }
  return highest;
}

/** Lines grouped by tax class and rate (lines with a class and a non-zero rate), then shipping. */
function taxDetails(lines: readonly PricedLine[], shipping: { rate: string; tax: number } | null): TaxDetail[] {
  const groups = new Map<string, TaxDetail>();
  for (const line of lines) {
    if (!line.taxClass || line.taxRate === '0') continue;
    const key = `${line.taxClass.id}|${line.taxRate}`;
    const group = groups.get(key);
    if (group) {
      group.taxMinor = sumMinor([group.taxMinor, line.taxMinor]);
    } else {
      groups.set(key, {
        kind: 'lines',
        taxClassId: line.taxClass.id,
        taxClassName: line.taxClass.name,
        taxRate: line.taxRate,
        taxMinor: line.taxMinor,
      });
    }
  }
  const details = [...groups.values()];
  if (shipping) {
    details.push({
      kind: 'shipping',
      taxClassId: null,
      taxClassName: 'Shipping',
      taxRate: shipping.rate,
      taxMinor: shipping.tax,
    });
  }
  return details;
}

function discountName(
  discount: PricingDiscount | null,
  currency: { currency: string; exponent: number },
): string | null {
  if (!discount) return null;
  switch (discount.type) {
    case 'percentage':
      return `Promo code ${discount.code} (${formatDecimal(discount.value)}%)`;
    case 'fixed':
      return `Promo code ${discount.code} (${formatMinor(discount.value, currency.exponent)} ${currency.currency} off)`;
    case 'free_shipping':
      return `Promo code ${discount.code} (free shipping)`;
    case 'custom':
      return discount.name;
  }
}

function nonNegativeMinor(amount: number, what: string): number {
  if (!Number.isSafeInteger(amount) || amount < 0)
    throw new RangeError(`${what} must be a non-negative whole number of minor units`);
  return amount;
}

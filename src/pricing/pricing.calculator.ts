import { currencyExponent } from '../shared/currency.js';
import {
  type Decimal,
  type RoundingMode,
  compareDecimal,
  multiplyByRatio,
  multiplyMinor,
  parseDecimal,
  percentOf,
  subtractMinor,
  sumMinor,
} from '../shared/money.js';
import { orderDiscounts } from './order-discount.js';
import type {
  PricedLine,
  PricedOrder,
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
 * beyond the safe integer range, an unknown currency); business failures are settled before (a
 * promo code's rules, shipping availability). Promotions whose conditions fail are left out.
 */
export function priceOrder(input: PricingInput): PricedOrder {
  const { config } = input;
  const mode = config.roundingMode;
  currencyExponent(config.currency); // refuses a currency Intl does not know
  const lines = mergeLinesByAlias(input.lines);
  const subtotals = lines.map((line) => multiplyMinor(line.unitPriceMinor, line.quantity));
  const weightGrams = orderWeightGrams(lines);
  const shippingFee = shippingFeeFor(input.shipping, weightGrams, mode);
  const discounts = orderDiscounts({
    lines,
    shippingFeeMinor: shippingFee,
    promotions: input.promotions,
    customDiscount: input.customDiscount,
    currency: config.currency,
    roundingMode: mode,
  });

  const rates = lineRates();
  const priced: PricedLine[] = lines.map((line, i) => {
    const lineSubtotal = subtotals[i] ?? 0;
    const { discountMinor: lineDiscount, adjustments } = discounts.lines[i] ?? { discountMinor: 0, adjustments: [] };
    const rate = line.taxClass ? input.taxRates.get(line.taxClass.id) : undefined;
    const { text: taxRate, value: rateValue } = rates(rate ?? '0');
    const taxable = subtractMinor(lineSubtotal, lineDiscount);
    const tax = taxOn(taxable, { rate: rateValue, inclusive: config.pricesIncludeTax, mode });
    return {
      alias: line.alias,
      variantId: line.variantId,
      productId: line.productId,
      name: line.name,
      quantity: line.quantity,
      unitPriceMinor: line.unitPriceMinor,
      subtotalMinor: lineSubtotal,
      discountMinor: lineDiscount,
      adjustments,
      taxClass: line.taxClass,
      taxRate,
      taxMinor: tax,
      totalMinor: config.pricesIncludeTax ? taxable : sumMinor([taxable, tax]),
    };
  });

  // Shipping is taxed on what is left of the fee once promotions took their part.
  const shippingCharged = subtractMinor(shippingFee, discounts.shippingDiscountMinor);
  const shippingTaxRate = config.shippingTaxable && input.shipping ? shippingRateFor(input, priced) : null;
  const shippingTax =
    shippingTaxRate === null
      ? 0
      : taxOn(shippingCharged, { rate: parseDecimal(shippingTaxRate), inclusive: config.pricesIncludeTax, mode });

  const estimatedTax = sumMinor([...priced.map((line) => line.taxMinor), shippingTax]);
  const linesTotal = sumMinor(priced.map((line) => line.totalMinor));
  const total = config.pricesIncludeTax
    ? sumMinor([linesTotal, shippingCharged])
    : sumMinor([linesTotal, shippingCharged, shippingTax]);

  return {
    currency: config.currency,
    pricesIncludeTax: config.pricesIncludeTax,
    lines: priced,
    totalItems: sumMinor(lines.map((line) => line.quantity)),
    weightGrams,
    subtotalMinor: sumMinor(subtotals),
    discountMinor: discounts.discountMinor,
    discountName: discounts.name,
    promotions: discounts.promotions,
    shippingFeeMinor: shippingFee,
    shippingDiscountMinor: discounts.shippingDiscountMinor,
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
      shippingTaxRate === null || shippingCharged === 0 ? null : { rate: shippingTaxRate, tax: shippingTax },
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
 * The lines' rates, canonical (`"7.25"`) and parsed, worked out once per rate of the order rather than once per line.
 */
function lineRates(): (rate: string) => { text: string; value: Decimal } {
  const known = new Map<string, { text: string; value: Decimal }>();
  return (rate) => {
    let found = known.get(rate);
    if (!found) {
      const text = rate === '0' ? '0' : canonicalRate(rate);
      found = { text, value: parseDecimal(text) };
      known.set(rate, found);
    }
    return found;
  };
}

/**
 * Tax on an amount at a percent rate, rounded once. Net prices: amount × rate / 100. Gross prices:
 * the tax inside the amount, amount × rate / (100 + rate); the net part is then the amount minus
 * that, so net + tax is always exactly the gross amount.
 */
function taxOn(amount: number, input: { rate: Decimal; inclusive: boolean; mode: RoundingMode }): number {
  const { rate } = input;
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

function nonNegativeMinor(amount: number, what: string): number {
  if (!Number.isSafeInteger(amount) || amount < 0)
    throw new RangeError(`${what} must be a non-negative whole number of minor units`);
  return amount;
}

import { presentLineImage, soldItem } from '../orders/order-line.js';
import { presentPricedOrder } from '../pricing/pricing.presenter.js';
import type { OrderQuote } from './order-quote.service.js';

/**
 * A quote as the estimate and the placement answer show it: the priced order's figures (src/pricing), each line with
 * the item it sells as an order line keeps it (src/orders/order-line.ts). Each line's own fields come before the
 * spread of its figures, which never carry them (docs/benchmarks.md: keys written after a spread are slow in V8).
 */
export function presentQuote(quote: OrderQuote) {
  const presented = presentPricedOrder(quote.priced);
  // Each priced line gains the item it sells (its own fields first: keys written after a spread are slow in V8).
  const lines = presented.lines.map((line, i) => {
    const variant = quote.variants.get(line.alias);
    if (!variant) throw new Error(`priced line "${line.alias}" has no variant`);
    const item = soldItem(variant);
    return {
      product_name: item.productName,
      variant_name: item.variantName,
      sku: item.sku,
      options: item.options,
      image: presentLineImage(item.image),
      tax_class: quote.priced.lines[i]?.taxClass?.name ?? null,
      ...line,
    };
  });
  if (quote.market.isDefault && !quote.marketChanged) return { ...presented, lines };
  const { market } = quote;
  return {
    market: {
      code: market.code,
      currency: market.currency,
      prices_include_tax: market.pricesIncludeTax,
      exchange_rate: market.exchangeRate,
    },
    ...(quote.marketChanged ? { market_changed: true } : {}),
    ...presented,
    lines,
  };
}

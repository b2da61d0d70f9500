import type { OrderLineRow, OrderRow } from './orders.repository.js';

/**
 * Builders for tests of what renders an order from its rows (the emails, the order page): a placed order in a
 * currency, unpaid and unfulfilled, with one discounted line of a product without options, unless told.
 */

const at = new Date('2026-11-20T10:00:00Z');

/** An order of 2 × 12.35 (in minor units of `currency`), 10 % off, 10 % tax included; `overrides` on top. */
export function orderRowIn(currency: string, overrides: Partial<OrderRow> = {}): OrderRow {
  return {
    id: 1,
    alias: 'a1b2',
    userId: null,
    email: 'kei@example.jp',
    orderTokenHash: null,
    placedBy: null,
    status: 'pending',
    cancelReason: null,
    paymentStatus: 'unpaid',
    amountAuthorized: 0,
    amountCaptured: 0,
    amountRefunded: 0,
    amountCredited: 0,
    amountCapturable: 0,
    fulfillmentStatus: 'unfulfilled',
    amountReturned: 0,
    currency,
    pricesIncludeTax: true,
    marketId: null,
    exchangeRate: null,
    totalInStoreCurrency: null,
    subtotal: 2470,
    discount: 247,
    discountName: 'Promo code AKI10 (10%)',
    promoCode: 'AKI10',
    promotions: [{ id: 1, name: 'Autumn', code: 'AKI10', kind: 'order_percentage', amount: 247 }],
    shippingDiscount: 0,
    shippingMethodId: null,
    shippingName: null,
    shippingFee: 0,
    shippingTaxRate: null,
    shippingTax: 0,
    estimatedTax: 202,
    totalWithoutTax: 2021,
    total: 2223,
    totalItems: 2,
    shippingAddress: {
      first_name: 'Kei',
      last_name: '</p><img src=x onerror=alert(1)>',
      street_address: '1-2-3 Ginza\nline two',
      city: 'Tokyo',
      postal_code: '104-0061',
      state: '',
      country: 'JP',
      email: 'kei@example.jp',
      phone_number: '',
    },
    billingAddress: null,
    note: '',
    eventSeq: 0,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

/** Its one line: 2 × "Sencha <50g>" (the product's name alone, no options, no image). */
export const orderLineRow: OrderLineRow = {
  id: 1,
  orderId: 1,
  variantId: 1,
  productId: 1,
  alias: 'tea',
  productName: 'Sencha <50g>',
  variantName: '',
  sku: null,
  options: [],
  image: null,
  quantity: 2,
  unitPrice: 1235,
  subtotal: 2470,
  discount: 247,
  adjustments: [{ promotion_id: 1, amount: 247 }],
  taxClassName: null,
  taxRate: '10.0000',
  tax: 202,
  total: 2223,
  stockReserved: true,
};

import type { Answer } from '../../api/client';

/** An order as the dashboard reads it. */
export type Order = Answer<'/order/dashboard/api/orders/{order_alias}/', 'get'>;
export type OrderLine = Order['lines'][number];
export type Address = NonNullable<Order['shipping_address']>;
/** One payment attempt of an order. */
export type Payment = Answer<'/payment/dashboard/api/orders/{order_alias}/payments/', 'get'>[number];
export type PaymentPlugin = Answer<'/payment/storefront/api/plugins/', 'get'>[number];
/** One event of an order (placed, paid, status changed…). */
export type OrderEvent = Answer<'/event/dashboard/api/events/', 'get'>['items'][number];

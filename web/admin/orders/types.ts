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
/** The order's money as a ledger: what it charges, took, gave back and credited, what is due either way. */
export type Ledger = Order['ledger'];
/** What an admin may do with a payment's money (each a POST /payment/dashboard/api/payments/{id}/<kind>/). */
export type PaymentAction = 'capture' | 'void' | 'refund';
/** One shipment (fulfillment) of an order, as admins read it: with the states it may move to next. */
export type Shipment = Answer<'/order/dashboard/api/orders/{order_alias}/fulfillments/', 'get'>['items'][number];
/** The answer to marking a shipment shipped: the shipment, and what shipping it captured (CAPTURE_ON_SHIPMENT). */
export type ShippedShipment = Answer<
  '/order/dashboard/api/orders/{order_alias}/fulfillments/{fulfillment_id}/ship/',
  'post'
>;
/** An order's returns, what each line may still return, and the reasons offered. */
export type OrderReturns = Answer<'/order/dashboard/api/orders/{order_alias}/returns/', 'get'>;
/** One return of an order's shipped units, with the states it may move to next. */
export type Return = OrderReturns['items'][number];
/** The answer to refunding a return: the return, and the refunds made (one per payment) with how each went. */
export type RefundedReturn = Answer<'/order/dashboard/api/orders/{order_alias}/returns/{return_id}/refund/', 'post'>;

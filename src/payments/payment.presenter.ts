import { Type } from 'typebox';
import { paymentStatesList } from '../db/schema.js';
import { StringEnum } from '../http/schemas.js';
import { currencyFormat } from '../shared/money.js';
import { capturableOf, refundableOf } from './payment-states.js';
import { figuresOf, type PaymentRow } from './payments.repository.js';

/** A payment attempt as the admin API shows it (and payment.* events carry it). */
export const Payment = Type.Object({
  id: Type.Integer(),
  order_id: Type.Integer(),
  order_alias: Type.String(),
  plugin_id: Type.String(),
  status: StringEnum(paymentStatesList),
  amount: Type.String(),
  amount_authorized: Type.String({ description: 'Held (manual capture), or held and taken at once' }),
  amount_captured: Type.String(),
  amount_refunded: Type.String(),
  amount_voided: Type.String({ description: 'What of the authorization was released unused' }),
  capturable: Type.String({ description: 'What an admin may still capture (or void)' }),
  refundable: Type.String({ description: 'What an admin may still refund: captured − refunded' }),
  authorization_expires_at: Type.Union([Type.String(), Type.Null()], {
    description: 'When the gateway lets the authorization lapse, if it said',
  }),
  currency: Type.String(),
  url: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export function presentPayment(p: PaymentRow, orderAlias: string) {
  const money = currencyFormat(p.currency);
  return {
    id: p.id,
    order_id: p.orderId,
    order_alias: orderAlias,
    plugin_id: p.pluginId,
    status: p.status,
    amount: money.format(p.amount),
    amount_authorized: money.format(p.amountAuthorized),
    amount_captured: money.format(p.amountCaptured),
    amount_refunded: money.format(p.amountRefunded),
    amount_voided: money.format(p.amountVoided),
    capturable: money.format(capturableOf(figuresOf(p))),
    refundable: money.format(refundableOf(figuresOf(p))),
    authorization_expires_at: p.authorizationExpiresAt?.toISOString() ?? null,
    currency: p.currency,
    url: p.redirectUrl,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

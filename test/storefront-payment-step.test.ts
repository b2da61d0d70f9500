// What the shop's order page offers about paying (web/storefront/payment-step.ts), from the order's ledger and its
// payment attempts: continue the open attempt and/or choose a method, or what happens to the money.
import { describe, expect, it } from 'vitest';
import { awaitsGateway, isZeroAmount, type OrderMoney, paymentStep } from '../web/storefront/payment-step.js';

const ledger = { to_pay: '0.00', refund_due: '0.00', refunded: '0.00', capturable: '0.00', captured: '0.00' };
const order = (
  over: Partial<Omit<OrderMoney, 'ledger'>> & { ledger?: Partial<OrderMoney['ledger']> } = {},
): OrderMoney => ({
  status: 'pending',
  payment_status: 'unpaid',
  currency: 'USD',
  ...over,
  ledger: { ...ledger, ...over.ledger },
});
const methods = [
  { id: 'sandbox', name: 'Sandbox (test payments)', manual_capture: false },
  { id: 'cash_on_delivery', name: 'Cash on delivery', manual_capture: true },
];
const unpaid = order({ ledger: { to_pay: '24.68' } });
const sandboxUrl = 'http://127.0.0.1:8000/payment/sandbox/checkout/?x=1';

describe('the payment step of an order page', () => {
  it('offers the Pay form for what is to pay when no attempt is open, and waits for no gateway', () => {
    const step = paymentStep({ order: unpaid, attempts: [], methods });
    expect(step).toEqual({ kind: 'pay', toPay: '24.68' });
    expect(awaitsGateway(step)).toBe(false);
  });

  it('offers to continue the latest open attempt at its url, by its method name, and waits for its gateway', () => {
    const step = paymentStep({
      order: unpaid,
      attempts: [
        { id: 1, plugin_id: 'sandbox', status: 'superseded', url: 'http://old' },
        { id: 2, plugin_id: 'sandbox', status: 'pending', url: sandboxUrl },
        { id: 3, plugin_id: 'sandbox', status: 'failed', url: 'http://failed' },
      ],
      methods,
    });
    expect(step).toEqual({
      kind: 'pay',
      toPay: '24.68',
      open: { id: 2, pluginId: 'sandbox', name: 'Sandbox (test payments)', url: sandboxUrl, manual: false },
    });
    expect(awaitsGateway(step)).toBe(true);
  });

  it('does not wait for a gateway while cash on delivery is the open attempt: an admin records the cash', () => {
    const step = paymentStep({
      order: unpaid,
      attempts: [{ id: 4, plugin_id: 'cash_on_delivery', status: 'pending', url: 'http://back' }],
      methods,
    });
    expect(step).toMatchObject({ kind: 'pay', open: { pluginId: 'cash_on_delivery', manual: true } });
    expect(awaitsGateway(step)).toBe(false);
  });

  it('says what was paid already when a balance is left to pay (the order changed after it was paid)', () => {
    const changed = order({ payment_status: 'partially_paid', ledger: { to_pay: '8.99', captured: '51.78' } });
    expect(paymentStep({ order: changed, attempts: [], methods })).toEqual({
      kind: 'pay',
      toPay: '8.99',
      paid: '51.78',
    });
  });

  it('offers nothing to pay on a cancelled order, even with an attempt left open', () => {
    const cancelled = order({ status: 'cancelled', ledger: { to_pay: '24.68' } });
    expect(
      paymentStep({
        order: cancelled,
        attempts: [{ id: 1, plugin_id: 'sandbox', status: 'pending', url: sandboxUrl }],
      }),
    ).toEqual({ kind: 'settled' });
  });

  it('says an authorized payment is held (what it holds), an overpaid one its refund due, a refunded one what', () => {
    const attempts: never[] = [];
    expect(
      paymentStep({ order: order({ payment_status: 'authorized', ledger: { capturable: '24.68' } }), attempts }),
    ).toEqual({ kind: 'authorized', amount: '24.68' });
    expect(
      paymentStep({ order: order({ payment_status: 'overpaid', ledger: { refund_due: '24.68' } }), attempts }),
    ).toEqual({ kind: 'refund_due', amount: '24.68' });
    expect(
      paymentStep({ order: order({ payment_status: 'partially_refunded', ledger: { refunded: '5.00' } }), attempts }),
    ).toEqual({ kind: 'refunded', amount: '5.00', whole: false });
    expect(
      paymentStep({ order: order({ payment_status: 'refunded', ledger: { refunded: '24.68' } }), attempts }),
    ).toEqual({ kind: 'refunded', amount: '24.68', whole: true });
    expect(paymentStep({ order: order({ payment_status: 'paid' }), attempts })).toEqual({ kind: 'settled' });
  });

  it('reads "0.00" and "0" as no money, and any other amount as some', () => {
    expect(['0.00', '0', '0.000'].map(isZeroAmount)).toEqual([true, true, true]);
    expect(['0.01', '10.00', '100'].map(isZeroAmount)).toEqual([false, false, false]);
  });
});

import { describe, expect, it } from 'vitest';
import { deliveryError, withoutMailboxes } from './mailer.js';
import type { EventRef } from '../events/outbox.js';
import { emailKindForEvent, logEmailNotSent } from './order-emails.js';

describe('the email an event calls for', () => {
  it.each([
    ['order.placed', { status: 'pending' }, 'order_confirmation'],
    ['order.paid', { status: 'approved' }, 'payment_received'],
    ['order.status_changed', { status: 'shipped' }, 'order_shipped'],
    ['order.status_changed', { status: 'shipped', fulfillment_status: 'unfulfilled' }, 'order_shipped'],
    // Shipped through its fulfillments: each parcel's fulfillment.shipped told it already.
    ['order.status_changed', { status: 'shipped', fulfillment_status: 'shipped' }, null],
    ['fulfillment.shipped', { status: 'processing', fulfillment_status: 'partially_shipped' }, 'order_shipped'],
    ['fulfillment.created', {}, null],
    ['fulfillment.delivered', {}, null],
    ['fulfillment.cancelled', {}, null],
    ['order.status_changed', { status: 'processing' }, null],
    ['order.status_changed', { status: 'cancelled' }, null],
    ['order.status_changed', null, null],
    ['order.cancelled', { status: 'cancelled' }, 'order_cancelled'],
    ['order.expired', { status: 'cancelled' }, 'order_expired'],
    ['order.edited', { status: 'approved' }, 'order_changed'],
    ['payment.succeeded', {}, null],
    ['payment.failed', {}, null],
    ['payment.refunded', {}, null],
  ])('%s with %o: %s', (type, data, kind) => {
    expect(emailKindForEvent(type, data)).toBe(kind);
  });
});

describe('an email not sent without SMTP_URL', () => {
  const event = (type: EventRef['type'], data: Record<string, unknown>): EventRef => ({
    id: 'evt-1',
    type,
    orderAlias: 'alias-1',
    paymentId: null,
    data,
  });
  const logged = (e: EventRef) => {
    const lines: { fields: Record<string, unknown>; message: string }[] = [];
    const log = { info: (fields: Record<string, unknown>, message: string) => void lines.push({ fields, message }) };
    const result = logEmailNotSent(log, e);
    return { result, lines };
  };

  it.each([
    ['order.placed', { status: 'pending' }, 'order_confirmation'],
    ['order.paid', { status: 'approved' }, 'payment_received'],
    ['order.status_changed', { status: 'shipped' }, 'order_shipped'],
    ['fulfillment.shipped', { status: 'processing', fulfillment_status: 'partially_shipped' }, 'order_shipped'],
    ['order.cancelled', { status: 'cancelled' }, 'order_cancelled'],
    ['order.expired', { status: 'cancelled' }, 'order_expired'],
  ] as const)('is logged for %s with %o as %s, with the recipient domain only', (type, data, kind) => {
    const { result, lines } = logged(event(type, { ...data, email: 'jane.doe@example.com', note: 'personal' }));
    expect(result).toEqual({ status: 'not_sent', reason: 'smtp_not_configured' });
    expect(lines).toEqual([
      {
        fields: { kind, order_alias: 'alias-1', event_id: 'evt-1', recipient_domain: 'example.com' },
        message: 'email not sent (SMTP_URL not set)',
      },
    ]);
  });

  it('says when the order has no email address, and logs nothing for an event that calls for no email', () => {
    expect(logged(event('order.placed', { email: null })).lines).toEqual([
      {
        fields: { kind: 'order_confirmation', order_alias: 'alias-1', event_id: 'evt-1' },
        message: 'email not sent (the order has no email address)',
      },
    ]);
    expect(logged(event('order.status_changed', { status: 'processing', email: 'a@b.example' })).lines).toEqual([]);
    expect(logged(event('payment.succeeded', { email: 'a@b.example' })).lines).toEqual([]);
    expect(logged({ ...event('order.placed', { email: 'a@b.example' }), orderAlias: null }).lines).toEqual([]);
  });
});

describe('an SMTP failure', () => {
  const smtp = (fields: Record<string, unknown>) => Object.assign(new Error('smtp'), fields);

  it.each([
    ['a 5xx refusal of a recipient', { code: 'EENVELOPE', responseCode: 550, permanent: true }, true],
    ['a 5xx refusal of the content', { code: 'EMESSAGE', responseCode: 554, permanent: true }, true],
    ['a 4xx reply', { code: 'EENVELOPE', responseCode: 451, permanent: false }, false],
    ['503 (bad sequence: a new connection may do)', { code: 'EPROTOCOL', responseCode: 503, permanent: false }, false],
    ['refused credentials (the store fixes them)', { code: 'EAUTH', responseCode: 535, permanent: true }, false],
    ['a refused connection', { code: 'ESOCKET' }, false],
    ['a timeout', { code: 'ETIMEDOUT' }, false],
    ['a lost connection', { code: 'ECONNECTION' }, false],
    ['an envelope nodemailer finds unusable', { code: 'EENVELOPE' }, true],
    ['something unknown', {}, false],
  ])('%s is permanent: %s', (_what, fields, permanent) => {
    expect(deliveryError(smtp(fields)).permanent).toBe(permanent);
  });

  it('says what the server replied with every mailbox cut to its domain', () => {
    const err = deliveryError(
      smtp({
        code: 'EENVELOPE',
        responseCode: 550,
        permanent: true,
        command: 'RCPT TO',
        response: '550 5.1.1 <jane.doe@example.com>: Recipient address rejected',
      }),
    );
    expect(err.message).toBe(
      'the SMTP server refused the email (RCPT: 550 5.1.1 <…@example.com>: Recipient address rejected)',
    );
    expect(withoutMailboxes('from a.b+c@x.example to "q"@y')).toBe('from …@x.example to …@y');
  });
});

import { describe, expect, it } from 'vitest';
import type { EventRef } from '../events/outbox.js';
import { EMAIL_JOB, emailJobFor } from './email-jobs.js';

const event = (type: EventRef['type'], data: Record<string, unknown> = {}): EventRef => ({
  id: 'a6d1c9a2-0000-4000-8000-000000000001',
  type,
  orderAlias: 'alias-1',
  paymentId: null,
  data,
});

describe('the email job of an event', () => {
  it('is keyed by the event, so an event sends its email once', () => {
    expect(emailJobFor(event('order.placed'))).toEqual({
      kind: EMAIL_JOB,
      key: 'a6d1c9a2-0000-4000-8000-000000000001',
      payload: { kind: 'order_confirmation', order_alias: 'alias-1', event_id: 'a6d1c9a2-0000-4000-8000-000000000001' },
    });
  });

  it('follows emailKindForEvent: shipped orders get one, other status changes and payment events none', () => {
    expect(emailJobFor(event('order.status_changed', { status: 'shipped' }))?.payload).toMatchObject({
      kind: 'order_shipped',
    });
    expect(emailJobFor(event('order.status_changed', { status: 'processing' }))).toBeUndefined();
    expect(emailJobFor(event('payment.succeeded'))).toBeUndefined();
    expect(emailJobFor({ ...event('order.placed'), orderAlias: null })).toBeUndefined();
  });
});

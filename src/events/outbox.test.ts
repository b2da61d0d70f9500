import { describe, expect, it, vi } from 'vitest';
import { JobQueue } from '../jobs/job-queue.js';
import { type EventRef, Outbox } from './outbox.js';

const event = (type: EventRef['type']): EventRef => ({
  id: `evt-${type}`,
  type,
  orderAlias: 'alias-1',
  paymentId: null,
  data: {},
});

describe('the listeners of committed events', () => {
  it('are told of the events of their type, or of every type with *, in the order they listened', () => {
    const outbox = new Outbox(new JobQueue());
    expect(outbox.hasCommittedListeners()).toBe(false);
    const heard: string[] = [];
    outbox.onCommitted('order.placed', (e) => heard.push(`placed:${e.id}`));
    outbox.onCommitted('*', (e) => heard.push(`any:${e.id}`));
    expect(outbox.hasCommittedListeners()).toBe(true);
    outbox.committed([event('order.placed'), event('payment.succeeded')]);
    expect(heard).toEqual(['placed:evt-order.placed', 'any:evt-order.placed', 'any:evt-payment.succeeded']);
  });

  it('tell the others when one throws, and report it as a warning (the change has committed)', () => {
    const outbox = new Outbox(new JobQueue());
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const heard: string[] = [];
    outbox.onCommitted('*', () => {
      throw new Error('listener broke');
    });
    outbox.onCommitted('*', (e) => heard.push(e.id));
    try {
      outbox.committed([event('order.placed')]);
      expect(heard).toEqual(['evt-order.placed']);
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ message: 'listener broke' }),
        'CommittedListenerWarning',
      );
    } finally {
      warn.mockRestore();
    }
  });
});

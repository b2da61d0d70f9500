import { describe, expect, it, vi } from 'vitest';
import { JobQueue } from '../jobs/job-queue.js';
import { type EventRef, eventRecording, Outbox } from './outbox.js';

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

describe('the statement recording the events of a change', () => {
  const order = { id: 7, alias: 'order-7' };

  it("bumps the one order's number by its events, by the order's key; events of no order take none", () => {
    const outbox = new Outbox(new JobQueue());
    const recording = eventRecording(outbox, [
      { type: 'payment.succeeded', order, paymentId: 3, data: {} },
      { type: 'order.paid', order, data: {} },
      { type: 'payment.succeeded', order: null, paymentId: 4, data: {} },
    ]);
    expect(recording.call?.values.slice(2)).toEqual([7, 2]);
    expect(eventRecording(outbox, [{ type: 'payment.failed', order: null, data: {} }]).call?.values.slice(2)).toEqual([
      null,
      0,
    ]);
    expect(eventRecording(outbox, []).call).toBeUndefined();
  });

  it('refuses the events of two orders in one change', () => {
    const outbox = new Outbox(new JobQueue());
    expect(() =>
      eventRecording(outbox, [
        { type: 'order.paid', order, data: {} },
        { type: 'order.paid', order: { id: 8, alias: 'order-8' }, data: {} },
      ]),
    ).toThrow('events of 2 orders recorded together');
  });
});

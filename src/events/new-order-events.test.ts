import { describe, expect, it } from 'vitest';
import type { Statement } from '../db/client.js';
import { JobQueue } from '../jobs/job-queue.js';
import { type NewOrderEvents, newOrderEventStatements } from './new-order-events.js';
import { type EventRef, Outbox } from './outbox.js';

const placed = (id: number, paid: boolean): NewOrderEvents => ({
  order: { id, alias: `order-${id}` },
  events: paid
    ? [
        { type: 'order.placed', seq: 1 },
        { type: 'order.paid', seq: 2 },
      ]
    : [{ type: 'order.placed', seq: 1 }],
  data: { order_id: id, status: 'pending' },
});

const subscriberStatement: Statement = { name: 'test_subscriber', text: 'select 1 where $1::jsonb is not null' };

/** The JSON a call was given as its first value. */
const firstValue = (call: { values: unknown[] } | undefined) => JSON.parse(String(call?.values[0]));

describe('the statements recording the events of new orders', () => {
  it("record each order's events with ids in the order of writing, its number and data, and nothing more", () => {
    const outbox = new Outbox(new JobQueue());
    const { calls } = newOrderEventStatements(outbox, [placed(7, true), placed(8, false)]);
    expect(calls.filter(Boolean)).toHaveLength(1);
    const rows = firstValue(calls[0]);
    expect(rows.map((r: { order_id: number }) => r.order_id)).toEqual([7, 8]);
    const events = rows.flatMap((r: { events: { id: string; type: string; seq: number }[] }) => r.events);
    expect(events.map((e: { type: string; seq: number }) => [e.type, e.seq])).toEqual([
      ['order.placed', 1],
      ['order.paid', 2],
      ['order.placed', 1],
    ]);
    const ids = events.map((e: { id: string }) => e.id);
    expect([...ids].sort()).toEqual(ids);
    expect(rows[0].data).toEqual({ order_id: 7, status: 'pending' });
  });

  it('enqueue the jobs the subscribers ask for, and run each statement subscriber over the events', () => {
    const outbox = new Outbox(new JobQueue());
    const told: EventRef[] = [];
    outbox.onEvent('order.paid', (event) => {
      told.push(event);
      return { kind: 'test.paid', key: event.id };
    });
    outbox.onEventsInDatabase(subscriberStatement);
    const { calls } = newOrderEventStatements(outbox, [placed(7, true)]);
    const [recorded, jobs, subscriber] = calls;
    const paidId = firstValue(recorded)[0].events[1].id;
    expect(told).toEqual([
      { id: paidId, type: 'order.paid', orderAlias: 'order-7', paymentId: null, data: placed(7, true).data },
    ]);
    expect(firstValue(jobs)).toEqual([expect.objectContaining({ kind: 'test.paid', key: paidId })]);
    expect(subscriber?.statement).toBe(subscriberStatement);
    expect(firstValue(subscriber).map((e: { type: string }) => e.type)).toEqual(['order.placed', 'order.paid']);
  });

  it('send nothing for no orders', () => {
    const outbox = new Outbox(new JobQueue());
    outbox.onEventsInDatabase(subscriberStatement);
    expect(newOrderEventStatements(outbox, []).calls.filter(Boolean)).toEqual([]);
  });

  it('once committed, wake the worker when a statement enqueued jobs, and tell the committed listeners', () => {
    const jobs = new JobQueue();
    const outbox = new Outbox(jobs);
    let wakes = 0;
    jobs.onWake(() => wakes++);
    const heard: string[] = [];
    outbox.onCommitted('*', (e) => heard.push(`${e.type}:${e.orderAlias}`));
    outbox.onEventsInDatabase(subscriberStatement);
    const quiet = newOrderEventStatements(outbox, [placed(7, false)]);
    quiet.committed([[], []]);
    expect(wakes).toBe(0);
    const busy = newOrderEventStatements(outbox, [placed(8, false)]);
    busy.committed([[], [{ id: 1 }]]);
    expect(wakes).toBe(1);
    expect(heard).toEqual(['order.placed:order-7', 'order.placed:order-8']);
  });
});

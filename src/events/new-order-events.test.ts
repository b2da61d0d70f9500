import { describe, expect, it } from 'vitest';
import { JobQueue } from '../jobs/job-queue.js';
import { lockedOrderEventStatements, type NewOrderEvents, newOrderEventStatements } from './new-order-events.js';
import type { SqlFanOut } from './events.repository.js';
import { type EventRef, Outbox } from './outbox.js';

const placed = (id: number, paid: boolean): NewOrderEvents => ({
  order: { id, alias: `order-${id}`, marketId: null },
  events: paid
    ? [
        { type: 'order.placed', seq: 1 },
        { type: 'order.paid', seq: 2 },
      ]
    : [{ type: 'order.placed', seq: 1 }],
  data: { order_id: id, status: 'pending' },
});

const fanOut: SqlFanOut = {
  name: 'test_fan_out',
  sql: (events) => `test_fan_out as (select id from ${events} where type = 'order.paid')`,
};

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

  it("enqueue the subscribers' jobs, and run the fan-outs' SQL over the events in the recording statement", () => {
    const outbox = new Outbox(new JobQueue());
    const told: EventRef[] = [];
    outbox.onEvent('order.paid', (event) => {
      told.push(event);
      return { kind: 'test.paid', key: event.id };
    });
    outbox.fanOutInSql(fanOut);
    const { calls } = newOrderEventStatements(outbox, [placed(7, true)]);
    const [recorded, jobs, more] = calls;
    const paidId = firstValue(recorded)[0].events[1].id;
    expect(told).toEqual([
      { id: paidId, type: 'order.paid', orderAlias: 'order-7', paymentId: null, data: placed(7, true).data },
    ]);
    expect(firstValue(jobs)).toEqual([expect.objectContaining({ kind: 'test.paid', key: paidId })]);
    expect(more).toBeUndefined();
    expect(recorded?.statement.text).toContain("test_fan_out as (select id from recorded where type = 'order.paid')");
    expect(recorded?.statement.text).toContain('(select count(*)::integer from test_fan_out) as fan_out_jobs');
  });

  it('send nothing for no orders', () => {
    const outbox = new Outbox(new JobQueue());
    outbox.fanOutInSql(fanOut);
    expect(newOrderEventStatements(outbox, []).calls.filter(Boolean)).toEqual([]);
  });

  it('once committed, wake the worker when a fan-out enqueued jobs, and tell the committed listeners', () => {
    const jobs = new JobQueue();
    const outbox = new Outbox(jobs);
    let wakes = 0;
    jobs.onWake(() => wakes++);
    const heard: string[] = [];
    outbox.onCommitted('*', (e) => heard.push(`${e.type}:${e.orderAlias}`));
    outbox.fanOutInSql(fanOut);
    const quiet = newOrderEventStatements(outbox, [placed(7, false)]);
    quiet.committed([[{ fan_out_jobs: 0 }]]);
    expect(wakes).toBe(0);
    const busy = newOrderEventStatements(outbox, [placed(8, false)]);
    busy.committed([[{ fan_out_jobs: 1 }]]);
    expect(wakes).toBe(1);
    expect(heard).toEqual(['order.placed:order-7', 'order.placed:order-8']);
  });
});

describe('the statements recording the events of a change of a locked order', () => {
  it('number its events after the last the order had, each with its own data, and answer the last number', () => {
    const outbox = new Outbox(new JobQueue());
    const recording = lockedOrderEventStatements(outbox, { id: 7, alias: 'order-7', marketId: 3, eventSeq: 4 }, [
      { type: 'fulfillment.created', data: { shipment: 1 } },
      { type: 'order.status_changed', data: { status: 'processing' } },
    ]);
    expect(recording.eventSeq).toBe(6);
    const rows = firstValue(recording.calls[0]);
    expect(rows.map((r: { order_id: number; market_id: number }) => [r.order_id, r.market_id])).toEqual([
      [7, 3],
      [7, 3],
    ]);
    expect(
      rows.map((r: { events: { type: string; seq: number }[]; data: unknown }) => [
        r.events.map((e) => [e.type, e.seq]),
        r.data,
      ]),
    ).toEqual([
      [[['fulfillment.created', 5]], { shipment: 1 }],
      [[['order.status_changed', 6]], { status: 'processing' }],
    ]);
  });

  it('leave the number as it was, and send nothing, for a change with no events', () => {
    const outbox = new Outbox(new JobQueue());
    const recording = lockedOrderEventStatements(outbox, { id: 7, alias: 'order-7', marketId: 3, eventSeq: 4 }, []);
    expect(recording.eventSeq).toBe(4);
    expect(recording.calls.filter(Boolean)).toEqual([]);
  });
});

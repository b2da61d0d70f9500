import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fulfillmentStates } from '../db/schema.js';
import {
  decideFulfillment,
  type FulfillmentState,
  type FulfillmentUnits,
  fulfillableByLine,
  fulfillmentStatusOf,
  fulfillmentStatusWithReturns,
  type LineUnits,
  orderMovesFor,
  shippedValue,
  statusesByHand,
  trackingUrlFor,
} from './fulfillment.decide.js';
import { fulfillmentStateMachine } from './fulfillment-states.js';
import { orderStates } from './order-states.js';

const mug: LineUnits = { lineId: 1, alias: 'mug', ordered: 2 };
const lamp: LineUnits = { lineId: 2, alias: 'lamp', ordered: 1 };
const lines = [mug, lamp];
const shipment = (status: FulfillmentState, units: [number, number][]): FulfillmentUnits => ({
  status,
  lines: units.map(([lineId, quantity]) => ({ lineId, quantity })),
});

describe('what can still be fulfilled', () => {
  it('is ordered less units in fulfillments that are not cancelled (returned units among them)', () => {
    const fulfillments = [shipment('shipped', [[1, 1]]), shipment('cancelled', [[2, 1]])];
    expect(fulfillableByLine(lines, fulfillments)).toEqual(
      new Map([
        [1, 1],
        [2, 1],
      ]),
    );
    // A unit shipped and since returned stays in its shipment: it is not fulfilled again.
    expect(fulfillableByLine([mug], [...fulfillments, shipment('delivered', [[1, 1]])]).get(1)).toBe(0);
  });

  it('takes every unit left when no lines are named', () => {
    const decision = decideFulfillment({ lines, fulfillments: [shipment('pending', [[1, 1]])], requested: undefined });
    expect(decision).toEqual({
      ok: true,
      lines: [
        { lineId: 1, quantity: 1 },
        { lineId: 2, quantity: 1 },
      ],
    });
  });

  it('refuses a quantity above what is left, naming the figures', () => {
    const decision = decideFulfillment({
      lines,
      fulfillments: [shipment('pending', [[1, 1]])],
      requested: [{ alias: 'mug', quantity: 2 }],
    });
    expect(decision).toEqual({
      ok: false,
      refusal: { kind: 'too_many', index: 0, alias: 'mug', requested: 2, fulfillable: 1 },
    });
  });

  it('refuses an unknown line, a line named twice, and a fulfillment when nothing is left', () => {
    const ask = (requested: { alias: string; quantity: number }[] | undefined, f: FulfillmentUnits[] = []) =>
      decideFulfillment({ lines, fulfillments: f, requested });
    expect(ask([{ alias: 'vase', quantity: 1 }])).toMatchObject({ refusal: { kind: 'unknown_line', index: 0 } });
    expect(
      ask([
        { alias: 'mug', quantity: 1 },
        { alias: 'mug', quantity: 1 },
      ]),
    ).toMatchObject({ refusal: { kind: 'duplicate_line', index: 1 } });
    const all = [
      shipment('delivered', [
        [1, 2],
        [2, 1],
      ]),
    ];
    expect(ask(undefined, all)).toEqual({ ok: false, refusal: { kind: 'nothing_left' } });
  });
});

describe("an order's fulfillment status", () => {
  const status = (...f: FulfillmentUnits[]) => fulfillmentStatusOf(lines, f);

  it('follows its units from unfulfilled to delivered', () => {
    expect(status()).toBe('unfulfilled');
    expect(status(shipment('pending', [[1, 1]]))).toBe('partially_fulfilled');
    expect(status(shipment('pending', [[1, 2]]), shipment('pending', [[2, 1]]))).toBe('fulfilled');
    expect(status(shipment('shipped', [[1, 2]]), shipment('pending', [[2, 1]]))).toBe('partially_shipped');
    expect(status(shipment('shipped', [[1, 1]]))).toBe('partially_shipped');
    expect(status(shipment('delivered', [[1, 2]]), shipment('shipped', [[2, 1]]))).toBe('shipped');
    expect(status(shipment('delivered', [[1, 2]]), shipment('delivered', [[2, 1]]))).toBe('delivered');
  });

  it('counts a cancelled fulfillment for nothing', () => {
    expect(status(shipment('cancelled', [[1, 2]]))).toBe('unfulfilled');
  });
});

describe('the order status moves fulfillments call for', () => {
  it('step forward along the order state machine, one move at a time', () => {
    expect(orderMovesFor('approved', 'partially_fulfilled')).toEqual(['processing']);
    expect(orderMovesFor('processing', 'fulfilled')).toEqual([]);
    expect(orderMovesFor('processing', 'shipped')).toEqual(['shipped']);
    expect(orderMovesFor('approved', 'shipped')).toEqual(['processing', 'shipped']);
    expect(orderMovesFor('shipped', 'delivered')).toEqual(['delivered']);
    expect(orderMovesFor('shipped', 'partially_shipped')).toEqual([]);
  });

  it('never move an order off the path (pending, cancelled) or back', () => {
    expect(orderMovesFor('pending', 'shipped')).toEqual([]);
    expect(orderMovesFor('cancelled', 'delivered')).toEqual([]);
    expect(orderMovesFor('delivered', 'partially_fulfilled')).toEqual([]);
  });
});

describe('the fulfillment status an order shows, with its returns', () => {
  const back = (status: string, units: [number, number][]) => ({
    status,
    lines: units.map(([lineId, quantity]) => ({ lineId, quantity })),
  });
  const all = [
    shipment('delivered', [
      [1, 2],
      [2, 1],
    ]),
  ];
  const shown = (f: FulfillmentUnits[], ...r: ReturnType<typeof back>[]) => fulfillmentStatusWithReturns(lines, f, r);

  it('is how far the order went out without returns, or with none back yet (requested, rejected, cancelled)', () => {
    expect(shown(all)).toBe('delivered');
    expect(shown(all, back('requested', [[1, 2]]), back('rejected', [[2, 1]]), back('cancelled', [[1, 1]]))).toBe(
      'delivered',
    );
  });

  it('is partially_returned with some units back, returned with all (received or refunded)', () => {
    expect(shown(all, back('received', [[1, 1]]))).toBe('partially_returned');
    expect(shown(all, back('refunded', [[1, 2]]), back('received', [[2, 1]]))).toBe('returned');
    expect(
      shown(
        [
          shipment('shipped', [
            [1, 2],
            [2, 1],
          ]),
        ],
        back('refunded', [[2, 1]]),
      ),
    ).toBe('partially_returned');
  });

  it('keeps saying partially_shipped while the rest has not gone out', () => {
    const part = [shipment('shipped', [[1, 2]]), shipment('pending', [[2, 1]])];
    expect(shown(part, back('received', [[1, 2]]))).toBe('partially_shipped');
  });

  it('moves no order status: the status follows how far the order went out', () => {
    expect(orderMovesFor('shipped', 'returned')).toEqual([]);
    expect(orderMovesFor('shipped', 'partially_returned')).toEqual([]);
  });
});

describe('the moves an admin makes by hand', () => {
  it('are all the state machine allows without fulfillments; not shipped or delivered with some', () => {
    expect(statusesByHand(['shipped'], 'unfulfilled')).toEqual(['shipped']);
    expect(statusesByHand(['shipped'], 'partially_fulfilled')).toEqual([]);
    expect(statusesByHand(['processing', 'cancelled'], 'fulfilled')).toEqual(['processing', 'cancelled']);
  });

  it('cancel a processing order only while nothing of it has shipped', () => {
    const fromProcessing = orderStates.transitions.processing;
    for (const fulfillment of ['unfulfilled', 'partially_fulfilled', 'fulfilled'] as const)
      expect(statusesByHand(fromProcessing, fulfillment)).toContain('cancelled');
    for (const fulfillment of ['partially_shipped', 'shipped', 'delivered'] as const)
      expect(statusesByHand(fromProcessing, fulfillment)).not.toContain('cancelled');
  });
});

describe('fulfillment states', () => {
  it('ship and deliver forward; cancel from pending only', () => {
    expect(fulfillmentStateMachine.transitions).toEqual({
      pending: ['shipped', 'cancelled'],
      shipped: ['delivered'],
      delivered: [],
      cancelled: [],
    });
  });
});

describe('tracking links', () => {
  const templates = { ups: 'https://ups.example/track?n={tracking_number}' };
  it("fills the carrier's template (any case) with the number, URL-encoded; the one given wins", () => {
    const link = (carrier: string | null, trackingNumber: string | null, given: string | null = null) =>
      trackingUrlFor({ carrier, trackingNumber, given, templates });
    expect(link('UPS', '1Z 99&x')).toBe('https://ups.example/track?n=1Z%2099%26x');
    expect(link('ups', '1Z', 'https://elsewhere.example/1Z')).toBe('https://elsewhere.example/1Z');
    expect(link('pigeon', '1Z')).toBeNull();
    expect(link('ups', null)).toBeNull();
  });
});

/** Random orders and sequences of fulfillment requests and moves, as admins would send them. */
const scenario = fc.record({
  ordered: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 4 }),
  steps: fc.array(
    fc.oneof(
      fc.record({
        kind: fc.constant('create' as const),
        all: fc.boolean(),
        asks: fc.array(fc.record({ line: fc.nat(4), quantity: fc.integer({ min: 1, max: 6 }) }), { maxLength: 4 }),
      }),
      fc.record({ kind: fc.constant('move' as const), which: fc.nat(20), to: fc.constantFrom(...fulfillmentStates) }),
    ),
    { maxLength: 25 },
  ),
});

type Step = Parameters<Parameters<typeof scenario.map>[0]>[0]['steps'][number];
type Forward = 'approved' | 'processing' | 'shipped' | 'delivered';

/** One admin request against the rules: a new fulfillment when it fits, a move when the state machine allows it. */
function apply(step: Step, orderLines: LineUnits[], fulfillments: FulfillmentUnits[]): void {
  if (step.kind === 'create') {
    const requested = step.all ? undefined : step.asks.map((a) => ({ alias: `l${a.line}`, quantity: a.quantity }));
    const decision = decideFulfillment({ lines: orderLines, fulfillments, requested });
    if (decision.ok) fulfillments.push({ status: 'pending', lines: decision.lines });
    return;
  }
  const f = fulfillments[step.which % Math.max(1, fulfillments.length)];
  if (f && fulfillmentStateMachine.can(f.status, step.to)) f.status = step.to;
}

/** Units of `line` (or of every line) in fulfillments in one of `states`. */
function units(fulfillments: FulfillmentUnits[], states: FulfillmentState[], line?: number): number {
  return fulfillments
    .filter((x) => states.includes(x.status))
    .flatMap((x) => x.lines)
    .filter((l) => line === undefined || l.lineId === line)
    .reduce((a, l) => a + l.quantity, 0);
}

/** Never more in live fulfillments than ordered, line by line; the status says what the units say. */
function checkUnits(orderLines: LineUnits[], fulfillments: FulfillmentUnits[]): void {
  const live: FulfillmentState[] = ['pending', 'shipped', 'delivered'];
  for (const line of orderLines) expect(units(fulfillments, live, line.lineId)).toBeLessThanOrEqual(line.ordered);
  const total = orderLines.reduce((a, l) => a + l.ordered, 0);
  const shipped = units(fulfillments, ['shipped', 'delivered']);
  const expected =
    units(fulfillments, ['delivered']) === total
      ? 'delivered'
      : shipped === total
        ? 'shipped'
        : shipped > 0
          ? 'partially_shipped'
          : units(fulfillments, live) === total
            ? 'fulfilled'
            : units(fulfillments, live) > 0
              ? 'partially_fulfilled'
              : 'unfulfilled';
  expect(fulfillmentStatusOf(orderLines, fulfillments)).toBe(expected);
}

describe('properties over random fulfillments', () => {
  it('never fulfil more than ordered, keep the status consistent, and move the order forward only', () => {
    fc.assert(
      fc.property(scenario, ({ ordered, steps }) => {
        const orderLines = ordered.map((q, i) => ({ lineId: i + 1, alias: `l${i}`, ordered: q }));
        const fulfillments: FulfillmentUnits[] = [];
        let orderStatus: Forward = 'approved';
        for (const step of steps) {
          apply(step, orderLines, fulfillments);
          checkUnits(orderLines, fulfillments);
          const status = fulfillmentStatusOf(orderLines, fulfillments);
          for (const to of orderMovesFor(orderStatus, status)) {
            expect(orderStates.can(orderStatus, to)).toBe(true);
            orderStatus = to as Forward;
          }
          // The order's status never runs ahead of its units.
          if (orderStatus === 'shipped') expect(['shipped', 'delivered']).toContain(status);
          if (orderStatus === 'delivered') expect(status).toBe('delivered');
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('what the units shipped are worth (CAPTURE_ON_SHIPMENT)', () => {
  // 3 mugs at 10.00 less 1.00 discount plus 8.25 % tax: 30.31; a lamp 50.00 + tax 4.13: 54.13; shipping 5.00.
  const order = {
    total: 8944,
    lines: [
      { lineId: 1, quantity: 3, total: 3031 },
      { lineId: 2, quantity: 1, total: 5413 },
    ],
  };
  const value = (...f: FulfillmentUnits[]) => shippedValue({ ...order, fulfillments: f });

  it('is each line in proportion, rounded down, with the shipping on the first shipment', () => {
    expect(value()).toBe(0);
    expect(value(shipment('pending', [[1, 3]]))).toBe(0);
    // 1 of 3 mugs: floor(3031 / 3) = 1010, and the 5.00 shipping.
    expect(value(shipment('shipped', [[1, 1]]))).toBe(1010 + 500);
    expect(value(shipment('shipped', [[1, 2]]))).toBe(2020 + 500);
  });

  it('is the order total exactly once every unit shipped, whatever the parcels', () => {
    expect(
      value(
        shipment('shipped', [[1, 1]]),
        shipment('delivered', [
          [1, 2],
          [2, 1],
        ]),
      ),
    ).toBe(8944);
    expect(value(shipment('cancelled', [[2, 1]]), shipment('shipped', [[2, 1]]))).toBe(5413 + 500);
  });

  it('never exceeds the total and never goes down as more ships', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ quantity: fc.integer({ min: 1, max: 9 }), total: fc.integer({ min: 0, max: 10 ** 7 }) }), {
          minLength: 1,
          maxLength: 5,
        }),
        fc.integer({ min: 0, max: 10 ** 5 }),
        fc.array(fc.nat(4), { maxLength: 30 }),
        (specs, shipping, picks) => {
          const lines = specs.map((s, i) => ({ lineId: i + 1, ...s }));
          const total = lines.reduce((a, l) => a + l.total, shipping);
          const fulfillments: FulfillmentUnits[] = [];
          const left = new Map(lines.map((l) => [l.lineId, l.quantity]));
          let before = 0;
          for (const pick of picks) {
            const line = lines[pick % lines.length];
            if (!line || (left.get(line.lineId) ?? 0) === 0) continue;
            left.set(line.lineId, (left.get(line.lineId) ?? 0) - 1);
            fulfillments.push(shipment('shipped', [[line.lineId, 1]]));
            const now = shippedValue({ total, lines, fulfillments });
            expect(now).toBeGreaterThanOrEqual(before);
            expect(now).toBeLessThanOrEqual(total);
            before = now;
          }
          const all = lines.map((l) => shipment('shipped', [[l.lineId, l.quantity]]));
          expect(shippedValue({ total, lines, fulfillments: all })).toBe(total);
        },
      ),
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LineChange } from '../order-edits/order-edit.decide.js';
import {
  CATALOG,
  CATALOG_ALIASES,
  halfOffShipping,
  OrderModel,
  tenPercent,
} from '../order-edits/order-edit.testing.js';
import {
  decideFulfillment,
  FULFILLABLE_ORDER_STATUSES,
  type FulfillmentState,
  fulfillmentStatusOf,
  fulfillmentStatusWithReturns,
  orderMovesFor,
  shippedValue,
} from '../orders/fulfillment.decide.js';
import { fulfillmentStateMachine } from '../orders/fulfillment-states.js';
import { type OrderLedger, orderPaymentStatus } from '../orders/order-ledger.js';
import type { ReturnRefund } from '../pricing/return-refund.js';
import { refundRow } from './return.presenter.js';
import { decideReceipt, decideReturn, type ReturnState, refundOfReturn, returnableByLine } from './return.decide.js';
import { returnStateMachine } from './return-states.js';

// Issue #27 item 4, "ledger and state kept true": random sequences of edits, payments, shipments (fulfilments),
// returns and refunds on one order, each step taken only through the pure rules the services ask (editRefusal and
// decideOrderEdit; decideFulfillment and the fulfilment state machine, the order following with orderMovesFor;
// decideReturn, decideReceipt, refundOfReturn and the return state machine; the ledger's refundCredit), so that what
// a rule refuses is not done. After every step, each property below checks one thing that must stay true.
// The order and its ledger are order-edit.testing.ts's model; the fulfilments and returns are kept here.

const RUNS = 400;

const REASONS: ReadonlySet<string> = new Set(['damaged', 'unwanted']);

interface ModelFulfilment {
  status: FulfillmentState;
  lines: { lineId: number; quantity: number }[];
}

interface ModelReturn {
  status: ReturnState;
  lines: { lineId: number; quantity: number }[];
  /** Set when received: whether each line's units went back into stock. */
  restock: Map<number, boolean> | null;
  /** Set when refunded: what the refund gave back. */
  refund: ReturnRefund | null;
}

type Step =
  | { kind: 'edit'; changes: LineChange[] }
  | { kind: 'pay' }
  | { kind: 'capture' }
  | { kind: 'fulfil'; line: number | null; quantity: number }
  | { kind: 'ship' | 'deliver' | 'cancel fulfilment'; index: number }
  | { kind: 'request return'; lines: { line: number; quantity: number }[] | 'all returnable' }
  | { kind: 'receive return'; index: number; restock: boolean[] }
  | { kind: 'reject return' | 'cancel return'; index: number }
  | { kind: 'refund return'; index: number; shipping: boolean; gatewayFails: boolean }
  | { kind: 'goodwill refund'; percent: number };

const index = fc.nat({ max: 3 });

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('edit' as const),
      changes: fc.uniqueArray(
        fc.record({ alias: fc.constantFrom(...CATALOG_ALIASES), quantity: fc.integer({ min: 0, max: 8 }) }),
        { selector: (c) => c.alias, minLength: 1, maxLength: 3 },
      ),
    }),
    weight: 2,
  },
  { arbitrary: fc.constant({ kind: 'pay' as const }), weight: 2 },
  { arbitrary: fc.constant({ kind: 'capture' as const }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('fulfil' as const),
      line: fc.option(index, { nil: null }),
      quantity: fc.integer({ min: 1, max: 4 }),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('ship' as const), index }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('deliver' as const), index }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('cancel fulfilment' as const), index }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('request return' as const),
      lines: fc.oneof(
        fc.constant('all returnable' as const),
        fc.uniqueArray(fc.record({ line: index, quantity: fc.integer({ min: 1, max: 2 }) }), {
          selector: (l) => l.line,
          minLength: 1,
          maxLength: 3,
        }),
      ),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('receive return' as const),
      index,
      restock: fc.array(fc.boolean(), { maxLength: 3 }),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('reject return' as const), index }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('cancel return' as const), index }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('refund return' as const),
      index,
      shipping: fc.boolean(),
      gatewayFails: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
    }),
    weight: 4,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('goodwill refund' as const), percent: fc.integer({ min: 0, max: 100 }) }),
    weight: 1,
  },
);

/**
 * Sequences of steps: random ones, or the whole way of an order (paid, fulfilled, shipped, everything returned and
 * refunded, with the shipping or not) with random steps before, between and after, so that most runs reach the end.
 */
const stepsArb: fc.Arbitrary<Step[]> = fc.oneof(
  fc.array(stepArb, { maxLength: 30, size: 'max' }),
  fc
    .tuple(
      fc.array(stepArb, { maxLength: 6 }),
      fc.array(stepArb, { maxLength: 4 }),
      fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
      fc.array(stepArb, { maxLength: 6 }),
    )
    .map(([before, between, shipping, after]): Step[] => [
      ...before,
      { kind: 'pay' },
      { kind: 'fulfil', line: null, quantity: 1 },
      ...[0, 1, 2].map((i): Step => ({ kind: 'ship', index: i })),
      ...between,
      { kind: 'request return', lines: 'all returnable' },
      ...[0, 1, 2, 3].map((i): Step => ({ kind: 'receive return', index: i, restock: [] })),
      ...shipping.map(
        (withShipping, i): Step => ({
          kind: 'refund return',
          index: i,
          shipping: withShipping,
          gatewayFails: false,
        }),
      ),
      ...after,
    ]),
);

const pick = <T>(list: readonly T[], i: number): T | undefined => list[i % Math.max(1, list.length)];

/** One order with its fulfilments and returns, moved by the steps as the services move it. */
class OrderLifecycle {
  fulfilments: ModelFulfilment[] = [];
  returns: ModelReturn[] = [];

  constructor(
    readonly model: OrderModel,
    /** PAYMENT_CAPTURE=manual with CAPTURE_ON_SHIPMENT, or automatic capture. */
    readonly manualCapture: boolean,
  ) {}

  get order() {
    return this.model.order;
  }

  get lines() {
    return this.model.lines;
  }

  /** What fulfillments.service.ts writes after a fulfilment changed: the fulfilment status, the order following it. */
  private followFulfilments(): void {
    const lines = this.lines.map((l) => ({ lineId: l.id, ordered: l.quantity }));
    const status = fulfillmentStatusOf(lines, this.fulfilments);
    this.order.fulfillmentStatus = fulfillmentStatusWithReturns(lines, this.fulfilments, this.returns);
    this.order.status = orderMovesFor(this.order.status, status).at(-1) ?? this.order.status;
  }

  private moveFulfilment(i: number, to: FulfillmentState): void {
    const f = pick(this.fulfilments, i);
    if (!f || !fulfillmentStateMachine.can(f.status, to)) return;
    f.status = to;
    this.followFulfilments();
    // CAPTURE_ON_SHIPMENT (shipment-capture.ts): what went out, less what was captured, from what is held.
    if (to === 'shipped' && this.manualCapture && this.order.amountCapturable > 0) {
      const shipped = shippedValue({
        total: this.order.total,
        lines: this.lines.map((l) => ({ lineId: l.id, quantity: l.quantity, total: l.total })),
        fulfillments: this.fulfilments,
      });
      this.model.capture(shipped - this.order.amountCaptured);
    }
  }

  private fulfil(s: { line: number | null; quantity: number }): void {
    if (!FULFILLABLE_ORDER_STATUSES.includes(this.order.status)) return;
    const line = s.line === null ? undefined : pick(this.lines, s.line);
    const decision = decideFulfillment({
      // As fulfillments.service.ts passes them: returned units stay in their shipped fulfilment.
      lines: this.lines.map((l) => ({ lineId: l.id, alias: l.alias, ordered: l.quantity, returned: 0 })),
      fulfillments: this.fulfilments,
      requested: line && [{ alias: line.alias, quantity: s.quantity }],
    });
    if (!decision.ok) return;
    this.fulfilments.push({ status: 'pending', lines: decision.lines });
    this.followFulfilments();
  }

  /** A return asked for: of the lines and units given, or of every unit the order shows as returnable. */
  private requestReturn(asked: { line: number; quantity: number }[] | 'all returnable'): void {
    const returnable = returnableByLine(
      this.lines.map((l) => l.id),
      this.fulfilments,
      this.returns,
    );
    const requested =
      asked === 'all returnable'
        ? this.lines.map((l) => ({ alias: l.alias, quantity: returnable.get(l.id) ?? 0 })).filter((l) => l.quantity > 0)
        : asked.map((r) => ({ alias: pick(this.lines, r.line)?.alias ?? 'none', quantity: r.quantity }));
    const decision = decideReturn({
      lines: this.lines.map((l) => ({ lineId: l.id, alias: l.alias })),
      fulfillments: this.fulfilments,
      returns: this.returns,
      requested: requested.map((r) => ({ ...r, reason: 'damaged' })),
      reasons: REASONS,
    });
    if (!decision.ok) return;
    this.returns.push({
      status: 'requested',
      lines: decision.lines.map((l) => ({ lineId: l.lineId, quantity: l.quantity })),
      restock: null,
      refund: null,
    });
  }

  private aliasOf(lineId: number): string {
    const line = this.lines.find((l) => l.id === lineId);
    if (!line) throw new Error(`a return names line ${lineId}, which the order no longer has`);
    return line.alias;
  }

  /** returns.service.ts, `moveReturn` to received: the units of each line said to be restocked go back into stock. */
  private receiveReturn(i: number, restock: boolean[]): void {
    const ret = pick(this.returns, i);
    if (!ret || !returnStateMachine.can(ret.status, 'received')) return;
    const receipt = decideReceipt({
      lines: ret.lines.map((l) => ({ lineId: l.lineId, alias: this.aliasOf(l.lineId) })),
      requested: ret.lines.map((l, n) => ({ alias: this.aliasOf(l.lineId), restock: restock[n] ?? true })),
    });
    if (!receipt.ok) throw new Error(`receipt refused: ${receipt.refusal.kind}`);
    for (const l of ret.lines) {
      const line = this.lines.find((x) => x.id === l.lineId);
      if (!receipt.restock.get(l.lineId) || !line?.stockReserved || line.variantId === null) continue;
      this.model.stock.set(line.variantId, (this.model.stock.get(line.variantId) ?? 0) + l.quantity);
    }
    ret.restock = receipt.restock;
    ret.status = 'received';
    this.followFulfilments();
  }

  /** payments/return-refunds.ts: what the units (and the shipping, if asked) were paid, given back. */
  private refundReturn(s: { index: number; shipping: boolean; gatewayFails: boolean }): void {
    const ret = pick(this.returns, s.index);
    if (!ret || !returnStateMachine.can(ret.status, 'refunded')) return;
    const refund = refundOfReturn({
      pricesIncludeTax: this.order.pricesIncludeTax,
      lines: new Map(this.lines.map((l) => [l.id, l])),
      returning: ret.lines,
      refundedBefore: this.returns
        .filter((r) => r.status === 'refunded' && r.refund !== null)
        .map((r) => ({ lines: r.lines, shipping: refundRow(r.refund as ReturnRefund) })),
      shipping: s.shipping ? this.order : null,
    });
    ret.status = 'refunded';
    ret.refund = refund;
    this.model.refundReturned(refund.amountMinor, { gatewayFails: s.gatewayFails });
  }

  private moveReturn(i: number, to: 'rejected' | 'cancelled'): void {
    const ret = pick(this.returns, i);
    if (!ret || !returnStateMachine.can(ret.status, to)) return;
    ret.status = to;
    this.followFulfilments();
  }

  apply(s: Step): void {
    switch (s.kind) {
      case 'edit':
        this.model.edit(s.changes, { fulfilled: this.order.fulfillmentStatus !== 'unfulfilled' });
        return;
      case 'pay':
        if (this.manualCapture) this.model.authorizeInFull();
        else this.model.payInFull();
        return;
      case 'capture':
        this.model.capture();
        return;
      case 'fulfil':
        this.fulfil(s);
        return;
      case 'ship':
        this.moveFulfilment(s.index, 'shipped');
        return;
      case 'deliver':
        this.moveFulfilment(s.index, 'delivered');
        return;
      case 'cancel fulfilment':
        this.moveFulfilment(s.index, 'cancelled');
        return;
      case 'request return':
        this.requestReturn(s.lines);
        return;
      case 'receive return':
        this.receiveReturn(s.index, s.restock);
        return;
      case 'reject return':
        this.moveReturn(s.index, 'rejected');
        return;
      case 'cancel return':
        this.moveReturn(s.index, 'cancelled');
        return;
      case 'refund return':
        this.refundReturn(s);
        return;
      case 'goodwill refund':
        this.model.refund(Math.floor((this.model.ledger().refundable * s.percent) / 100));
        return;
    }
  }

  /** Units of each line in the fulfilments or returns with one of `states`. */
  unitsIn(
    entries: readonly { status: string; lines: readonly { lineId: number; quantity: number }[] }[],
    states: readonly string[],
  ) {
    const units = new Map<number, number>();
    for (const e of entries) {
      if (!states.includes(e.status)) continue;
      for (const l of e.lines) units.set(l.lineId, (units.get(l.lineId) ?? 0) + l.quantity);
    }
    return units;
  }
}

/** What a check is told after a step: the step, and the order's ledger and total just before it. */
interface StepTaken {
  step: Step;
  before: { ledger: OrderLedger; total: number; credited: number };
}

/**
 * Runs random sequences of steps on random orders (lines, promotions, taxed shipping or not, automatic or manual
 * capture) and calls `check` after every step.
 */
function afterEveryStep(check: (o: OrderLifecycle, taken: StepTaken) => void, numRuns: number): void {
  fc.assert(
    fc.property(
      fc.record({
        initial: fc.uniqueArray(
          fc.record({ alias: fc.constantFrom(...CATALOG_ALIASES), quantity: fc.integer({ min: 1, max: 4 }) }),
          { selector: (c) => c.alias, minLength: 1, maxLength: 3 },
        ),
        promotions: fc.subarray([tenPercent, halfOffShipping]),
        shippingTaxRate: fc.constantFrom(null, '8.25'),
        manualCapture: fc.boolean(),
      }),
      stepsArb,
      ({ initial, promotions, shippingTaxRate, manualCapture }, steps) => {
        const model = OrderModel.place(initial, { promotions, shippingTaxRate });
        fc.pre(model !== undefined);
        const lifecycle = new OrderLifecycle(model, manualCapture);
        for (const step of steps) {
          const o = lifecycle.order;
          const before = { ledger: model.ledger(), total: o.total, credited: o.amountCredited };
          lifecycle.apply(step);
          check(lifecycle, { step, before });
        }
      },
    ),
    { numRuns },
  );
}

const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);

describe('random sequences of edits, shipments, returns and refunds on one order', () => {
  it("keep the order's figures adding up as SPEC section 6 says, per line and in total", () => {
    afterEveryStep(({ order: o, lines }) => {
      expect(o.subtotal - o.discount + o.shippingFee + o.estimatedTax).toBe(o.total);
      expect(sum(lines.map((l) => l.total)) + o.shippingFee - o.shippingDiscount + o.shippingTax).toBe(o.total);
      expect(sum(lines.map((l) => l.subtotal))).toBe(o.subtotal);
      expect(sum(lines.map((l) => l.discount)) + o.shippingDiscount).toBe(o.discount);
      expect(sum(lines.map((l) => l.tax)) + o.shippingTax).toBe(o.estimatedTax);
      for (const l of lines) {
        expect(l.subtotal).toBe(l.unitPrice * l.quantity);
        expect(l.subtotal - l.discount + l.tax).toBe(l.total);
      }
    }, RUNS);
  });

  it('never take stock below zero: stock is what was there, less the units sold, plus the units restocked', () => {
    afterEveryStep((o) => {
      for (const c of CATALOG) {
        const left = o.model.stock.get(c.id) ?? 0;
        expect(left).toBeGreaterThanOrEqual(0);
        const sold = sum(o.lines.filter((l) => l.variantId === c.id && l.stockReserved).map((l) => l.quantity));
        const restocked = sum(
          o.returns.flatMap((r) =>
            r.lines
              .filter((l) => r.restock?.get(l.lineId) && o.lines.find((x) => x.id === l.lineId)?.variantId === c.id)
              .filter(() => c.track)
              .map((l) => l.quantity),
          ),
        );
        expect(left).toBe(c.stock - sold + restocked);
      }
    }, RUNS);
  });

  it('never fulfil more units of a line than were ordered, nor take back more than were shipped', () => {
    afterEveryStep((o) => {
      const fulfilled = o.unitsIn(o.fulfilments, ['pending', 'shipped', 'delivered']);
      const shipped = o.unitsIn(o.fulfilments, ['shipped', 'delivered']);
      const returned = o.unitsIn(o.returns, ['requested', 'received', 'refunded']);
      for (const [lineId, units] of fulfilled) {
        const line = o.lines.find((l) => l.id === lineId);
        expect(line, `line ${lineId} of a fulfilment that is not cancelled is still the order's`).toBeDefined();
        expect(units).toBeLessThanOrEqual(line?.quantity ?? 0);
      }
      for (const [lineId, units] of returned) expect(units).toBeLessThanOrEqual(shipped.get(lineId) ?? 0);
    }, RUNS);
  });

  it('say returned when every unit came back, partially returned when some did of an order gone out whole', () => {
    afterEveryStep((o) => {
      const ordered = sum(o.lines.map((l) => l.quantity));
      const back = sum([...o.unitsIn(o.returns, ['received', 'refunded']).values()]);
      const gone = fulfillmentStatusOf(
        o.lines.map((l) => ({ lineId: l.id, ordered: l.quantity })),
        o.fulfilments,
      );
      const whole = gone === 'shipped' || gone === 'delivered';
      const expected = !whole || back === 0 ? gone : back >= ordered ? 'returned' : 'partially_returned';
      expect(o.order.fulfillmentStatus).toBe(expected);
    }, RUNS);
  });

  it("never refund more than was captured, and give back exactly the order's total once everything came back", () => {
    afterEveryStep((o) => {
      const order = o.order;
      expect(order.amountRefunded).toBeLessThanOrEqual(order.amountCaptured);
      const refunded = o.returns.filter((r) => r.refund !== null);
      const refunds = refunded.map((r) => r.refund as ReturnRefund);
      expect(sum(refunds.map((r) => r.amountMinor))).toBe(order.amountReturned);
      const units = o.unitsIn(refunded, ['refunded']);
      for (const line of o.lines) {
        const lineRefunds = refunded.flatMap((r) =>
          r.lines.flatMap((l, n) =>
            l.lineId === line.id ? [(r.refund as ReturnRefund).lines[n]?.amountMinor ?? 0] : [],
          ),
        );
        expect(sum(lineRefunds)).toBeLessThanOrEqual(line.total);
        if (units.get(line.id) === line.quantity) expect(sum(lineRefunds)).toBe(line.total);
      }
      const everyUnitBack = o.lines.every((l) => units.get(l.id) === l.quantity);
      const shippingBack = refunds.some((r) => r.shipping !== null && r.shipping.feeMinor > 0);
      if (everyUnitBack && shippingBack) expect(order.amountReturned).toBe(order.total);
    }, RUNS);
  });

  it('owe money back only after a lowered total, an overpayment or a refused refund, within refundable', () => {
    afterEveryStep((o, { step, before }) => {
      const ledger = o.model.ledger();
      expect(ledger.refundDue).toBeLessThanOrEqual(ledger.refundable);
      if (ledger.balanceDue >= 0 || before.ledger.balanceDue < 0) return;
      const cause =
        (step.kind === 'edit' && o.order.total < before.total)
        || ((step.kind === 'capture' || step.kind === 'ship') && o.order.amountCaptured > before.ledger.captured)
        || (step.kind === 'refund return' && step.gatewayFails);
      expect(cause, `balance ${before.ledger.balanceDue} → ${ledger.balanceDue} after ${step.kind}`).toBe(true);
    }, RUNS);
  });

  it("credit nothing with a return's refund: it gives back what is owed, never goodwill", () => {
    afterEveryStep((o, { step, before }) => {
      if (step.kind === 'refund return') expect(o.model.ledger().credited).toBe(before.ledger.credited);
    }, RUNS);
  });

  it('keep the payment status the one the ledger gives, and meaning what it says', () => {
    afterEveryStep((o) => {
      const ledger = o.model.ledger();
      const status = o.order.paymentStatus;
      expect(status).toBe(orderPaymentStatus(ledger));
      const kept = ledger.captured - ledger.refunded;
      if (status === 'overpaid') expect(ledger.refundDue).toBeGreaterThan(0);
      else expect(ledger.refundDue).toBe(0);
      if (status === 'paid') expect([ledger.balanceDue, ledger.refunded]).toEqual([0, 0]);
      if (status === 'partially_refunded')
        expect(ledger.balanceDue === 0 && ledger.refunded > 0 && kept > 0).toBe(true);
      if (status === 'partially_paid') expect(ledger.balanceDue > 0 && kept > 0).toBe(true);
      if (status === 'unpaid' || status === 'authorized') expect(ledger.captured).toBe(0);
      if (status === 'refunded') expect(kept === 0 && ledger.captured > 0).toBe(true);
    }, RUNS);
  });

  // Found by this file: a return's refund used to be taken from what the payments kept, whatever of it was not owed
  // back booked as a credit, instead of lowering what the customer still owed. Smallest case, as fast-check shrank
  // it: 2 mugs (2 × 12.50 + 8.25 % tax = 27.06, shipping 5.00, total 32.06) authorized in full (manual capture); 1 mug
  // shipped, which captures 13.53 + 5.00 = 18.53 and releases the rest (a final capture), so 13.53 is due again; that
  // mug returned and refunded (13.53): 13.53 went back and was credited, and the second mug shipped for 5.00 net. Now
  // a return refunds only what it makes owed back (return-refunds.ts); the property above checks it on every run.
  it('refund a return of part of an order shipped in parts without crediting what is still due', () => {
    const model = OrderModel.place([{ alias: 'mug', quantity: 2 }], { promotions: [] });
    if (!model) throw new Error('placement refused');
    const order = new OrderLifecycle(model, true);
    const steps: Step[] = [
      { kind: 'pay' },
      { kind: 'fulfil', line: 0, quantity: 1 },
      { kind: 'ship', index: 0 },
      { kind: 'request return', lines: 'all returnable' },
      { kind: 'receive return', index: 0, restock: [] },
    ];
    for (const step of steps) order.apply(step);
    expect(model.ledger()).toMatchObject({ total: 3206, captured: 1853, capturable: 0, balanceDue: 1353 });
    order.apply({ kind: 'refund return', index: 0, shipping: false, gatewayFails: false });
    // The mug came back (13.53): the order charges 18.53, the customer paid 18.53, nothing is owed back.
    expect(model.ledger()).toMatchObject({ returned: 1353, charge: 1853, refunded: 0, credited: 0, balanceDue: 0 });
  });
});

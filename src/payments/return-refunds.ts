import { claimFor, rememberResponse, storedResponse } from '../orders/idempotency.js';
import { returnedToCustomer } from '../orders/order-ledger.js';
import { findOrderByAlias, linesOf } from '../orders/orders.repository.js';
import { refundNow, refundRow } from '../returns/return.presenter.js';
import { returnStateMachine } from '../returns/return-states.js';
import { addAmountReturned, returnsOf, setReturnState } from '../returns/returns.repository.js';
import {
  lockedOrder,
  type ReturnChange,
  type ReturnDeps,
  recordReturnChange,
  returnOf,
} from '../returns/returns.service.js';
import { DomainError } from '../shared/errors.js';
import { currencyFormat } from '../shared/money.js';
import { NOTHING_PENDING, refundableOf } from './payment-states.js';
import { reserveLocked, run } from './payments.admin.js';
import {
  figuresOf,
  ledgerOf,
  lockPayment,
  type OperationRow,
  operationsOfOrder,
  refreshOrderLedger,
} from './payments.repository.js';
import type { PaymentsDeps } from './payments.service.js';

/** One refund a return's refund made on one payment, and how it went at the gateway. */
export interface ReturnRefundMove {
  payment_id: number;
  amount: string;
  status: 'succeeded' | 'failed' | 'pending';
  detail: string | null;
}

/**
 * Refunds a received return (decision 0029), in two steps as every refund of the ledger. In one transaction, the order
 * locked: what the returned units were paid (the pricing core's `refundForReturnedUnits`, the shipping too when asked)
 * is added to the order's `amount_returned` (the order no longer charges it), the return becomes `refunded` with those
 * figures, and what that makes owed back (`refund_due` once the return counts, at most its amount) is reserved as
 * refunds on the payments that kept money, newest first, each a ledger record tied to the return, keyed by it, with
 * no credit (money owed back, not goodwill), with the return's event. So on a paid order the whole amount goes back,
 * while on one with money still due (the rest of an order shipped in parts, after its first parcel's final capture;
 * an authorization not yet captured) the return first lowers what is due. Then each refund goes to its gateway. A
 * gateway that refuses leaves the money owed back on the order's ledger (`refund_due`), for an admin to refund again;
 * the answer lists each refund with its status.
 */
export async function refundReturn(
  deps: PaymentsDeps & ReturnDeps,
  input: { alias: string; returnId: number; shipping: boolean; requestKey?: string; adminId: number | null },
): Promise<{ change: ReturnChange; refunds: ReturnRefundMove[] }> {
  const { change, ops } = await deps.outbox.jobs.transaction(deps.db, async (tx) => {
    const order = await lockedOrder(tx, input.alias);
    const claim = claimFor({
      scope: `return-refund:${input.returnId}`,
      requestKey: input.requestKey,
      operation: 'refund-return',
      payload: { shipping: input.shipping },
    });
    const returns = await returnsOf(tx, order.id);
    const ret = returnOf(returns, input.returnId, order.alias);
    if (claim && (await storedResponse(tx, claim))) {
      // The same request again: the refunds it reserved, resumed if a gateway had not answered.
      const lines = await linesOf(tx, order.id);
      const ops = (await operationsOfOrder(tx, order.id)).filter((op) => op.returnId === ret.id);
      return { change: { ret, order, lines, returns }, ops };
    }
    returnStateMachine.assert(ret.status, 'refunded', `return ${ret.id}`);
    const lines = await linesOf(tx, order.id);
    const refund = refundNow({ order, lines, returns }, ret, { shipping: input.shipping });
    await setReturnState(tx, ret, {
      status: 'refunded',
      refund: { figures: refundRow(refund), shipping: input.shipping },
    });
    const charged = await addAmountReturned(tx, order.id, refund.amountMinor);
    const { ledger, payments, pending } = await ledgerOf(tx, charged, { withPending: true });
    const money = currencyFormat(order.currency);
    const ops: OperationRow[] = [];
    // What the return makes owed back: all of it on a paid order; on one with money still due, that is due less.
    let left = returnedToCustomer(ledger, refund.amountMinor);
    for (const found of [...payments].reverse()) {
      const most = refundableOf(figuresOf(found), pending.get(found.id) ?? NOTHING_PENDING);
      const amount = Math.min(left, most);
      if (amount <= 0) continue;
      const payment = await lockPayment(tx, found.id);
      if (!payment) continue;
      ops.push(
        await reserveLocked(tx, deps, {
          kind: 'refund',
          order: charged,
          payment,
          request: { amount: money.format(amount), requestKey: `return-${ret.id}`, adminId: input.adminId },
          returnId: ret.id,
        }),
      );
      left -= amount;
    }
    const after = await refreshOrderLedger(tx, charged);
    if (claim) await rememberResponse(tx, claim, { status: 200, body: { return_id: ret.id } });
    return { change: await recordReturnChange(tx, deps, { order: after, returnId: ret.id, event: 'refunded' }), ops };
  });

  const refunds: ReturnRefundMove[] = [];
  for (const op of ops) {
    const money = currencyFormat(change.order.currency);
    const entry = { payment_id: op.paymentId, amount: money.format(op.amount) };
    if (op.status !== 'pending') {
      refunds.push({ ...entry, status: op.status, detail: op.error });
      continue;
    }
    try {
      await run(deps, op);
      refunds.push({ ...entry, status: 'succeeded', detail: null });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const retryable = err.extra?.retryable === true;
      refunds.push({ ...entry, status: retryable ? 'pending' : 'failed', detail: err.detail ?? err.message });
    }
  }
  // The order as the refunds left it (each settled in its own transaction).
  const order = ops.length > 0 ? await findOrderByAlias(deps.db, change.order.alias) : undefined;
  return { change: order ? { ...change, order } : change, refunds };
}

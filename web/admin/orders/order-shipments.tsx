import { ok } from '../../api/client';
import type { Problem } from '../../shared/problem';
import { ErrorMessage } from '../../shared/ui';
import { useDashboard } from '../context';
import { DateList, words } from '../format';
import { Outcome } from '../outcome';
import { RecordTable } from '../pages/common/record-table';
import { useWrite } from '../use-write';
import { FulfilDialog } from './fulfil-dialog';
import { canFulfil, fulfillableByAlias } from './fulfillable';
import { ConfirmPanel, useOpenMove } from './order-section-moves';
import { ShipDialog } from './ship-dialog';
import { cancelledText, unitsText } from './shipment-words';
import type { Order, Shipment } from './types';

type Open = { kind: 'fulfil' } | { kind: 'ship' | 'cancel'; shipment: Shipment };

/**
 * The order's shipments (fulfillments): each with its units, tracking and dates, and the moves its state allows (the
 * API's `next_statuses`): mark shipped (tracking to complete), mark delivered, cancel a pending one after a
 * confirmation. "Fulfil" opens a dialog for a new shipment of what is left.
 */
export function OrderShipments(props: {
  order: Order;
  shipments: Shipment[] | undefined;
  problem: Problem | undefined;
  onChanged: () => Promise<void>;
}) {
  const { order, shipments, onChanged } = props;
  const { api } = useDashboard();
  const write = useWrite();
  const { open, setOpen, said, setSaid, questionRef, opening, done, closed } = useOpenMove<Open>(write, onChanged);
  const left = fulfillableByAlias(order, shipments ?? order.fulfillments);
  const leftLines = order.lines
    .map((l) => ({ name: l.name, quantity: left.get(l.alias) ?? 0 }))
    .filter((l) => l.quantity > 0);

  async function move(shipment: Shipment, to: 'deliver' | 'cancel') {
    setSaid(undefined);
    const params = { path: { order_alias: order.order_alias, fulfillment_id: shipment.id } };
    const moved =
      to === 'deliver'
        ? await write.run(
            () =>
              ok(
                api.POST('/order/dashboard/api/orders/{order_alias}/fulfillments/{fulfillment_id}/deliver/', {
                  params,
                }),
              ),
            (a) => `Shipment ${a.id} delivered.`,
          )
        : await write.run(
            () =>
              ok(
                api.POST('/order/dashboard/api/orders/{order_alias}/fulfillments/{fulfillment_id}/cancel/', { params }),
              ),
            cancelledText,
          );
    setOpen(undefined);
    if (moved) await onChanged();
  }

  return (
    <section aria-labelledby="order-shipments">
      <h2 id="order-shipments">Shipments</h2>
      <p>
        Fulfilment: <strong>{words(order.fulfillment_status)}</strong>.{' '}
        {leftLines.length > 0 ? `Left to fulfil: ${unitsText(leftLines)}.` : 'Every unit is in a shipment.'}
      </p>
      {canFulfil(order) && leftLines.length > 0 && (
        <p>
          <button type="button" onClick={() => opening({ kind: 'fulfil' })}>
            Fulfil
          </button>
        </p>
      )}
      <ErrorMessage problem={props.problem} />
      {shipments === undefined && props.problem === undefined && <p>Loading…</p>}
      {shipments?.length === 0 && <p>No shipment yet.</p>}
      {shipments !== undefined && shipments.length > 0 && (
        <RecordTable
          caption="Shipments of this order"
          columns={['Shipment', 'Status', 'Items', 'Carrier', 'Tracking', 'Dates', 'Actions']}
          reflow
        >
          {shipments.map((s) => (
            <tr key={s.id}>
              <td data-label="Shipment">{s.id}</td>
              <td data-label="Status">{words(s.status)}</td>
              <td data-label="Items">
                <ul class="plain">
                  {s.lines.map((l) => (
                    <li key={l.alias}>{unitsText([l])}</li>
                  ))}
                </ul>
              </td>
              <td data-label="Carrier">{s.carrier ?? <span class="muted">—</span>}</td>
              <td data-label="Tracking">
                <span class="break">
                  {s.tracking_number === null ? (
                    <span class="muted">—</span>
                  ) : s.tracking_url ? (
                    <a href={s.tracking_url} target="_blank" rel="noopener noreferrer">
                      {s.tracking_number}
                      <span class="visually-hidden"> (opens in a new tab)</span>
                    </a>
                  ) : (
                    s.tracking_number
                  )}
                </span>
              </td>
              <td data-label="Dates">
                <DateList
                  dates={[
                    ['created', s.created_at],
                    ['shipped', s.shipped_at],
                    ['delivered', s.delivered_at],
                    ['cancelled', s.cancelled_at],
                  ]}
                />
              </td>
              <td data-label="Actions">
                <div class="row">
                  {s.next_statuses.includes('shipped') && (
                    <button type="button" onClick={() => opening({ kind: 'ship', shipment: s })}>
                      Mark shipped<span class="visually-hidden"> (shipment {s.id})</span>
                    </button>
                  )}
                  {s.next_statuses.includes('delivered') && (
                    <button type="button" disabled={write.busy} onClick={() => void move(s, 'deliver')}>
                      Mark delivered<span class="visually-hidden"> (shipment {s.id})</span>
                    </button>
                  )}
                  {s.next_statuses.includes('cancelled') && (
                    <button type="button" class="secondary" onClick={() => opening({ kind: 'cancel', shipment: s })}>
                      Cancel shipment<span class="visually-hidden"> {s.id}</span>
                    </button>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </RecordTable>
      )}
      {open?.kind === 'cancel' && (
        <ConfirmPanel
          questionRef={questionRef}
          busy={write.busy}
          confirm={`Yes, cancel shipment ${open.shipment.id}`}
          onConfirm={() => void move(open.shipment, 'cancel')}
          onKeep={() => setOpen(undefined)}
        >
          Cancel shipment {open.shipment.id}? Its units ({unitsText(open.shipment.lines)}) go back to what is left to
          fulfil. Nothing was shipped: no money moves, and the order keeps its stock.
        </ConfirmPanel>
      )}
      {open?.kind === 'fulfil' && shipments && (
        <FulfilDialog order={order} shipments={shipments} onDone={done} onClose={closed} />
      )}
      {open?.kind === 'ship' && (
        <ShipDialog key={open.shipment.id} order={order} shipment={open.shipment} onDone={done} onClose={closed} />
      )}
      <Outcome done={said ?? write.done} problem={write.problem} />
    </section>
  );
}

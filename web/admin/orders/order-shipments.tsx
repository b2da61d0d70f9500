import { useEffect, useRef, useState } from 'preact/hooks';
import { ok } from '../../api/client';
import type { Problem } from '../../shared/problem';
import { ErrorMessage } from '../../shared/ui';
import { useDashboard } from '../context';
import { When, words } from '../format';
import { Outcome } from '../outcome';
import { useWrite } from '../use-write';
import { FulfilDialog } from './fulfil-dialog';
import { canFulfil, fulfillableByAlias } from './fulfillable';
import { ShipDialog } from './ship-dialog';
import { cancelledText, unitsText } from './shipment-words';
import type { Order, Shipment } from './types';

type Open = { kind: 'fulfil' } | { kind: 'ship' | 'cancel'; shipment: Shipment };

/** When a shipment was made, shipped, delivered or cancelled: each date it has. */
function Dates(props: { shipment: Shipment }) {
  const s = props.shipment;
  const dates = [
    ['created', s.created_at],
    ['shipped', s.shipped_at],
    ['delivered', s.delivered_at],
    ['cancelled', s.cancelled_at],
  ] as const;
  return (
    <ul class="plain">
      {dates.map(([what, iso]) =>
        iso ? (
          <li key={what}>
            <small>
              {what} <When iso={iso} />
            </small>
          </li>
        ) : null,
      )}
    </ul>
  );
}

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
  const [open, setOpen] = useState<Open>();
  const [said, setSaid] = useState<string>();
  const confirmRef = useRef<HTMLParagraphElement>(null);
  // The question shows below the list, away from the button pressed: focus goes to it, so it is seen and read.
  useEffect(() => {
    if (open?.kind === 'cancel') confirmRef.current?.focus();
  }, [open]);
  const left = fulfillableByAlias(order, shipments ?? order.fulfillments);
  const leftLines = order.lines
    .map((l) => ({ name: l.name, quantity: left.get(l.alias) ?? 0 }))
    .filter((l) => l.quantity > 0);

  const opening = (next: Open) => {
    setSaid(undefined);
    write.reset();
    setOpen(next);
  };
  const done = async (message: string) => {
    setOpen(undefined);
    setSaid(message);
    await onChanged();
  };
  const closed = () => {
    setOpen(undefined);
    void onChanged();
  };
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
        <div class="table-wrap">
          <table class="reflow">
            <caption class="visually-hidden">Shipments of this order</caption>
            <thead>
              <tr>
                <th scope="col">Shipment</th>
                <th scope="col">Status</th>
                <th scope="col">Items</th>
                <th scope="col">Carrier</th>
                <th scope="col">Tracking</th>
                <th scope="col">Dates</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
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
                    <Dates shipment={s} />
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
                        <button
                          type="button"
                          class="secondary"
                          onClick={() => opening({ kind: 'cancel', shipment: s })}
                        >
                          Cancel shipment<span class="visually-hidden"> {s.id}</span>
                        </button>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {open?.kind === 'cancel' && (
        <div class="panel">
          <p ref={confirmRef} tabIndex={-1}>
            Cancel shipment {open.shipment.id}? Its units ({unitsText(open.shipment.lines)}) go back to what is left to
            fulfil. Nothing was shipped: no money moves, and the order keeps its stock.
          </p>
          <div class="row">
            <button type="button" disabled={write.busy} onClick={() => void move(open.shipment, 'cancel')}>
              Yes, cancel shipment {open.shipment.id}
            </button>
            <button type="button" class="secondary" onClick={() => setOpen(undefined)}>
              Keep it
            </button>
          </div>
        </div>
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

import { useState } from 'preact/hooks';
import { ok } from '../../api/client';
import { problemBeyondFields } from '../../shared/problem';
import { ErrorMessage, Money } from '../../shared/ui';
import { useDashboard } from '../context';
import { useWrite } from '../use-write';
import { isPositive } from './amounts';
import { ModalForm, type OrderDialogProps } from './modal-dialog';
import { shippedText, unitsText } from './shipment-words';
import { TRACKING_FIELDS, type TrackingDraft, TrackingFields, trackingBody } from './tracking-fields';
import type { Shipment } from './types';

const draftOf = (s: Shipment): TrackingDraft => ({
  carrier: s.carrier ?? '',
  tracking_number: s.tracking_number ?? '',
  tracking_url: s.tracking_url ?? '',
});

/**
 * Mark a pending shipment shipped, in a dialog: its tracking as it has it, to complete or correct (only what changed is
 * sent, so a link given before stays), then the answer in words with what shipping captured. Safe to press again: a
 * shipment already shipped is refused (409), never shipped twice.
 */
export function ShipDialog(props: OrderDialogProps & { shipment: Shipment }) {
  const { order, shipment } = props;
  const { api } = useDashboard();
  const write = useWrite();
  const [tracking, setTracking] = useState(() => draftOf(shipment));

  async function ship(event: Event) {
    event.preventDefault();
    const params = { path: { order_alias: order.order_alias, fulfillment_id: shipment.id } };
    const body = trackingBody(tracking, draftOf(shipment));
    const url = '/order/dashboard/api/orders/{order_alias}/fulfillments/{fulfillment_id}/ship/' as const;
    const shipped = await write.run(() => ok(api.POST(url, { params, body })));
    if (shipped) await props.onDone(shippedText(shipped, order));
  }

  return (
    <ModalForm
      title={`Mark shipment ${shipment.id} shipped`}
      onSubmit={ship}
      busy={write.busy}
      confirm="Yes, mark it shipped"
      onClose={props.onClose}
    >
      <p>
        Going out now: <strong>{unitsText(shipment.lines)}</strong>. The customer gets the shipped email with its
        tracking link (when the store sends emails).
      </p>
      {isPositive(order.ledger.capturable) && (
        <p class="muted">
          Payments hold <Money amount={order.ledger.capturable} currency={order.currency} /> not captured yet: a store
          that captures on shipment captures what these units are worth.
        </p>
      )}
      <TrackingFields draft={tracking} onChange={setTracking} problem={write.problem} />
      <ErrorMessage problem={problemBeyondFields(write.problem, [...TRACKING_FIELDS])} />
    </ModalForm>
  );
}

import { fieldError, type Problem } from '../../shared/problem';
import { Field } from '../../shared/ui';

/** A shipment's tracking as typed: each blank until given. */
export interface TrackingDraft {
  carrier: string;
  tracking_number: string;
  tracking_url: string;
}

export const TRACKING_FIELDS = ['carrier', 'tracking_number', 'tracking_url'] as const;

/**
 * The tracking to send: the fields filled in (the API refuses an empty one), or, with `before`, only those changed
 * from it, so what the shipment had stays (a given link is not replaced by the carrier's template).
 */
export function trackingBody(draft: TrackingDraft, before?: TrackingDraft): Partial<TrackingDraft> {
  const body: Partial<TrackingDraft> = {};
  for (const name of TRACKING_FIELDS) {
    const value = draft[name].trim();
    if (value !== '' && value !== before?.[name].trim()) body[name] = value;
  }
  return body;
}

/** Carrier, tracking number and tracking link, each with the API's error beside it. */
export function TrackingFields(props: {
  draft: TrackingDraft;
  onChange: (draft: TrackingDraft) => void;
  problem: Problem | undefined;
}) {
  const { draft, problem } = props;
  const set = (name: keyof TrackingDraft) => (e: { currentTarget: HTMLInputElement }) =>
    props.onChange({ ...draft, [name]: e.currentTarget.value });
  return (
    <div class="fields">
      <Field
        label="Carrier"
        hint="e.g. ups, dhl, usps, fedex"
        autoComplete="off"
        value={draft.carrier}
        onInput={set('carrier')}
        error={fieldError(problem, 'carrier')}
      />
      <Field
        label="Tracking number"
        autoComplete="off"
        value={draft.tracking_number}
        onInput={set('tracking_number')}
        error={fieldError(problem, 'tracking_number')}
      />
      <Field
        label="Tracking URL (optional)"
        hint="Default: the carrier's tracking page for the number"
        type="url"
        autoComplete="off"
        value={draft.tracking_url}
        onInput={set('tracking_url')}
        error={fieldError(problem, 'tracking_url')}
      />
    </div>
  );
}

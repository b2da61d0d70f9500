import { useId, useState } from 'preact/hooks';
import { fieldError } from '../../shared/problem';
import { ErrorMessage, Field } from '../../shared/ui';
import { Outcome } from '../outcome';
import { useWrite } from '../use-write';
import { type Endpoint, type EndpointInput, WEBHOOK_EVENT_TYPES, type WebhookEventType } from './types';

/**
 * An endpoint's URL, description and the event types it gets: to create one, or to change one. `save` sends it;
 * the API checks it (a bad URL, no event…) and its errors are shown beside the fields they name.
 */
export function EndpointForm<T extends NonNullable<unknown>>(props: {
  initial?: Endpoint;
  submit: string;
  save: (input: EndpointInput) => Promise<T>;
  saved: (answer: T) => string;
  onSaved?: (answer: T) => void | Promise<void>;
}) {
  const { initial } = props;
  const write = useWrite();
  const [url, setUrl] = useState(initial?.url ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [events, setEvents] = useState<WebhookEventType[]>(
    WEBHOOK_EVENT_TYPES.filter((t) => initial?.events.includes(t)),
  );
  const legendId = useId();

  const toggle = (type: WebhookEventType, on: boolean) =>
    setEvents((before) => WEBHOOK_EVENT_TYPES.filter((t) => (t === type ? on : before.includes(t))));

  async function submit(event: Event) {
    event.preventDefault();
    const answer = await write.run(() => props.save({ url: url.trim(), description, events }), props.saved);
    if (answer === undefined) return;
    if (initial === undefined) {
      setUrl('');
      setDescription('');
      setEvents([]);
    }
    await props.onSaved?.(answer);
  }

  const eventsError = fieldError(write.problem, 'events');
  const named = ['url', 'description', 'events'].some((f) => fieldError(write.problem, f) !== undefined);
  return (
    <form onSubmit={submit} aria-label={props.submit}>
      <Field
        label="URL"
        name="url"
        inputMode="url"
        autoComplete="off"
        placeholder="https://hooks.example.com/storefront"
        value={url}
        onInput={(e) => setUrl(e.currentTarget.value)}
        error={fieldError(write.problem, 'url')}
      />
      <Field
        label="Description"
        name="description"
        value={description}
        onInput={(e) => setDescription(e.currentTarget.value)}
        error={fieldError(write.problem, 'description')}
      />
      <fieldset aria-describedby={eventsError ? `${legendId}-error` : undefined}>
        <legend id={legendId}>Events</legend>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type} class="check">
            <input
              type="checkbox"
              name="events"
              value={type}
              checked={events.includes(type)}
              onChange={(e) => toggle(type, e.currentTarget.checked)}
            />{' '}
            {type}
          </label>
        ))}
        {eventsError && (
          <small id={`${legendId}-error`} class="field-error">
            {eventsError}
          </small>
        )}
      </fieldset>
      <button type="submit" disabled={write.busy}>
        {props.submit}
      </button>
      <Outcome done={write.done} />
      {!named && <ErrorMessage problem={write.problem} />}
    </form>
  );
}

import type { AttemptRow, DeliveryRow } from './webhook-deliveries.repository.js';
import type { EndpointRow } from './webhook-endpoints.repository.js';

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

/** An endpoint as lists and reads show it: never its secret. */
export function presentEndpoint(row: EndpointRow) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    is_active: row.isActive,
    disabled_reason: row.disabledReason,
    failing_since: iso(row.failingSince),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The answer of create and rotate-secret, the only ones that show the secret. */
export function presentEndpointWithSecret(row: EndpointRow) {
  return { ...presentEndpoint(row), secret: row.secret };
}

export function presentDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    endpoint_id: row.endpointId,
    event_id: row.eventId,
    event_type: row.eventType,
    message_id: row.messageId,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: iso(row.nextAttemptAt),
    last_response_code: row.lastResponseCode,
    last_duration_ms: row.lastDurationMs,
    last_error: row.lastError,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function presentDeliveryDetail(row: DeliveryRow, attempts: AttemptRow[]) {
  return {
    ...presentDelivery(row),
    payload: row.payload,
    attempt_log: attempts.map((a) => ({
      attempted_at: a.attemptedAt.toISOString(),
      response_code: a.responseCode,
      duration_ms: a.durationMs,
      error: a.error,
      response_snippet: a.responseSnippet,
    })),
  };
}

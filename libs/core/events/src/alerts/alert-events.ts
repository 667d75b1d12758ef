import { envelope, type EventEnvelope } from '../envelope';
import type { EventDefinition } from '../event-definition';
import { payloadSchema } from '../json-schema';
import { TOPICS } from '../topics';

export const ALERT_RAISED = 'AlertRaised';
export const ALERT_DELIVERY_ATTEMPTED = 'AlertDeliveryAttempted';

export const ALERT_EVENT_TYPES = ['render_failures', 'page_errors', 'export_finished', 'noindex_appeared', 'critical_pages_up'] as const;
export const ALERT_DELIVERY_STATUSES = ['delivered', 'retrying', 'failed'] as const;

/** An alert rule fired: the webhook body to send (`{id, type, website, occurredAt, data}`). */
export interface AlertRaisedPayload {
  /** Stable id: the same alert raised twice (a later evaluation, another replica) has the same id and is delivered once. */
  readonly alertId: string;
  readonly type: (typeof ALERT_EVENT_TYPES)[number];
  readonly website: string;
  /** When what the alert tells happened (ISO 8601 UTC). */
  readonly alertOccurredAt: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** One try to POST an alert to the website's webhook, and how it ended. */
export interface AlertDeliveryAttemptedPayload {
  readonly alertId: string;
  readonly type: (typeof ALERT_EVENT_TYPES)[number];
  readonly website: string;
  /** 1-based try. */
  readonly attempt: number;
  /** `retrying`: this try failed and another is due at `nextAttemptAt`; `failed`: no more tries. */
  readonly status: (typeof ALERT_DELIVERY_STATUSES)[number];
  /** The receiver's HTTP status; null when it did not answer. */
  readonly httpStatus: number | null;
  /** Why the try failed, in words; empty when delivered. */
  readonly error: string;
  readonly nextAttemptAt?: string;
}

export type AlertRaised = EventEnvelope<typeof ALERT_RAISED, AlertRaisedPayload>;
export type AlertDeliveryAttempted = EventEnvelope<typeof ALERT_DELIVERY_ATTEMPTED, AlertDeliveryAttemptedPayload>;
export type AlertEvent = AlertRaised | AlertDeliveryAttempted;

const common = {
  alertId: { type: 'string', description: 'stable alert id, also the `X-BPC-Alert-Id` header and the body\'s `id`' },
  type: { enum: [...ALERT_EVENT_TYPES] },
  website: { type: 'string', description: 'website id (also the key)' },
} as const;

const alertRaisedSchema = payloadSchema<AlertRaisedPayload>()({
  type: 'object', additionalProperties: false, required: ['alertId', 'type', 'website', 'alertOccurredAt', 'data'],
  properties: { ...common, alertOccurredAt: { type: 'string', format: 'date-time' }, data: { type: 'object', description: 'figures of the alert, by type (docs/alerts.md)' } },
});
const alertDeliveryAttemptedSchema = payloadSchema<AlertDeliveryAttemptedPayload>()({
  type: 'object', additionalProperties: false, required: ['alertId', 'type', 'website', 'attempt', 'status', 'httpStatus', 'error'],
  properties: {
    ...common,
    attempt: { type: 'integer', minimum: 1 },
    status: { enum: [...ALERT_DELIVERY_STATUSES] },
    httpStatus: { type: ['integer', 'null'], description: "the receiver's HTTP status; null when it did not answer" },
    error: { type: 'string' },
    nextAttemptAt: { type: 'string', format: 'date-time' },
  },
});

export const ALERT_EVENT_CATALOG: Readonly<Record<AlertEvent['type'], EventDefinition>> = {
  [ALERT_RAISED]: {
    type: ALERT_RAISED, version: 1, topic: TOPICS.alerts, key: 'website id',
    description: 'An alert rule of a website fired (render failures, a page turning to errors, an export finished); its id is stable, so the same alert raised twice is delivered once.',
    payload: alertRaisedSchema,
  },
  [ALERT_DELIVERY_ATTEMPTED]: {
    type: ALERT_DELIVERY_ATTEMPTED, version: 1, topic: TOPICS.alerts, key: 'website id',
    description: "One try to POST an alert to the website's webhook: delivered, retrying (another try is due) or failed (no more tries).",
    payload: alertDeliveryAttemptedSchema,
  },
};

/** Event ids are derived from the alert (and the try), so the same alert raised by two replicas is one row wherever it is projected. */
export function newAlertRaised(payload: AlertRaisedPayload, now: number): AlertRaised {
  return envelope(ALERT_RAISED, 1, payload, { id: `alert:${payload.alertId}`, occurredAt: new Date(now), key: payload.website });
}

export function newAlertDeliveryAttempted(payload: AlertDeliveryAttemptedPayload, now: number): AlertDeliveryAttempted {
  return envelope(ALERT_DELIVERY_ATTEMPTED, 1, payload, { id: `alert:${payload.alertId}#${payload.attempt}`, occurredAt: new Date(now), key: payload.website });
}

export function asAlertEvent(event: { type: string; version: number }): AlertEvent | undefined {
  const definition = (ALERT_EVENT_CATALOG as Record<string, EventDefinition | undefined>)[event.type];
  return definition && definition.version === event.version ? (event as AlertEvent) : undefined;
}

import { randomUUID } from 'node:crypto';
import { envelope } from '../envelope';
import type { EventDefinition } from '../event-definition';
import { TOPICS } from '../topics';
import { RENDER_RECORDED, RenderRecorded, RenderRecordedPayload, renderRecordedSchema } from './render-recorded.event';

/** The render history topic: one event per render or origin fetch, keyed by host id. */
export type RenderEvent = RenderRecorded;

export const RENDER_EVENT_CATALOG: Readonly<Record<RenderEvent['type'], EventDefinition>> = {
  [RENDER_RECORDED]: { type: RENDER_RECORDED, version: 1, topic: TOPICS.renders, key: 'host id (decimal string)', description: 'A render or origin fetch ended (scheduler attempt or edge miss): one row of the render history.', payload: renderRecordedSchema },
};

/** A new RenderRecorded event with a fresh id. */
export function newRenderRecorded(payload: RenderRecordedPayload, now: number): RenderRecorded {
  return envelope(RENDER_RECORDED, RENDER_EVENT_CATALOG[RENDER_RECORDED].version, payload, { id: randomUUID(), occurredAt: new Date(now), key: String(payload.hostId) }) as unknown as RenderRecorded;
}

/** Narrows a record read from the renders topic. */
export function asRenderEvent(event: { type: string; version: number }): RenderEvent | undefined {
  const definition = (RENDER_EVENT_CATALOG as Record<string, EventDefinition | undefined>)[event.type];
  return definition && definition.version === event.version ? (event as RenderEvent) : undefined;
}

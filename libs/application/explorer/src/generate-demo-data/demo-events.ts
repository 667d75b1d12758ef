import { envelope, QUEUE_EVENT_CATALOG, type QueueEvent, RENDER_EVENT_CATALOG, RENDER_RECORDED, type RenderRecorded, type RenderRecordedPayload } from '@bpc/events';

/** mulberry32: small, fast, seedable, so a demo data set is reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function weighted<T>(random: () => number, items: readonly (readonly [T, number])[]): T {
  const total = items.reduce((s, [, w]) => s + w, 0);
  let r = random() * total;
  for (const [item, weight] of items) {
    r -= weight;
    if (r < 0) return item;
  }
  return items[items.length - 1][0];
}

/** Log-normal time around `median` ms (a serve, a render). */
export function serveTime(random: () => number, median: number): number {
  const gaussian = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return Math.max(1, Math.round(median * Math.exp(0.6 * gaussian)));
}

/** A browser render of the demo host as the renderer records it, keyed by the host (render history's partition). */
export function demoRenderRecorded(hostId: number, id: string, atMs: number, payload: Omit<RenderRecordedPayload, 'hostId' | 'mode'>): RenderRecorded {
  const version = RENDER_EVENT_CATALOG[RENDER_RECORDED].version;
  return envelope(RENDER_RECORDED, version, { hostId, mode: 'render', ...payload }, { id, occurredAt: new Date(atMs), key: String(hostId) }) as unknown as RenderRecorded;
}

type QueuePayloadOf<T extends QueueEvent['type']> = Extract<QueueEvent, { type: T }>['payload'];

/** A queue-topic event of the demo host with a given id and time, keyed by the host as the daemon keys them (one partition, in order). */
export function demoQueueEvent<T extends QueueEvent['type']>(type: T, payload: QueuePayloadOf<T>, hostId: number, id: string, atMs: number): Extract<QueueEvent, { type: T }> {
  return envelope(type, QUEUE_EVENT_CATALOG[type].version, payload, { id, occurredAt: new Date(atMs), key: String(hostId) }) as unknown as Extract<QueueEvent, { type: T }>;
}

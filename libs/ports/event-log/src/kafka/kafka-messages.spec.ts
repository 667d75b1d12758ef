import { CompressionTypes } from 'kafkajs';
import { envelope } from '@bpc/events';
import { kafkaMessagesOf } from './kafka-messages';

const at = new Date(Date.UTC(2026, 0, 1));

describe('kafkaMessagesOf', () => {
  it('hands each event as a message: its key, its JSON envelope, and type, version and id headers', () => {
    const events = [envelope('A', 1, { n: 1 }, { id: 'e1', occurredAt: at, key: 'k1' }), envelope('B', 2, { n: 'é' }, { id: 'e2', occurredAt: at, key: 'k2' })];
    const { messages, largest, compression } = kafkaMessagesOf(events);
    expect(messages).toEqual(events.map((event) => ({ key: event.key, value: Buffer.from(JSON.stringify(event)), headers: { type: event.type, version: String(event.version), id: event.id } })));
    expect(largest).toBe(Math.max(...messages.map((m) => (m.value as Buffer).length)));
    expect(compression).toBe(CompressionTypes.None);
  });

  it('compresses an append holding a large event, and refuses an event without a string key', () => {
    const large = envelope('A', 1, { urls: 'x'.repeat(64 * 1024) }, { id: 'e1', occurredAt: at, key: 'k' });
    expect(kafkaMessagesOf([large]).compression).toBe(CompressionTypes.GZIP);
    expect(() => kafkaMessagesOf([{ ...large, key: undefined as unknown as string }])).toThrow('event e1 has no string key');
  });
});

import produceV3, { ProduceMessage } from 'kafkajs/src/protocol/requests/produce/v3/request';
import Decoder from 'kafkajs/src/protocol/decoder';
import decodeRecordBatch from 'kafkajs/src/protocol/recordBatch/v0/decoder';
import { BotRequestEventIds, encodeRecordedBotRequests, RecordedBotRequests } from '@bpc/events';
import { recordedBotRequest } from '@bpc/testing';
import { kafkaMessagesOf } from './kafka-messages';

const PREFIX = '0123456789abcdef0123456789abcdef';

describe('kafkaMessagesOf', () => {
  it('hands a batch of numbered events to kafkajs as one run whose id headers are copied from the events’ JSON', async () => {
    const requests = new RecordedBotRequests(PREFIX);
    for (let n = 0; n < 25; n++) requests.add({ ...recordedBotRequest(n), requestId: `r${n}` }, 100 + n);
    const batch = encodeRecordedBotRequests(requests.columns());
    const { messages, compression } = kafkaMessagesOf(batch);
    expect(messages).toHaveLength(1);
    const { buffer } = await produceV3({ acks: -1, timeout: 30_000, compression, topicData: [{ topic: 't', partitions: [{ partition: 0, messages: messages as ProduceMessage[] }] }] }).encode();
    const decoder = new Decoder(buffer);
    // Transactional id, acks, timeout, topic count, topic, partition count, partition, record set size: then the record batch.
    expect([decoder.readString(), decoder.readInt16(), decoder.readInt32(), decoder.readInt32(), decoder.readString(), decoder.readInt32(), decoder.readInt32()]).toEqual([null, -1, 30_000, 1, 't', 1, 0]);
    decoder.readInt32();
    const { records } = await decodeRecordBatch(decoder);
    const ids = new BotRequestEventIds(PREFIX);
    expect(records.map((r) => String(r.headers.id))).toEqual(Array.from({ length: 25 }, (_, n) => ids.of(100 + n)));
    expect(records.map((r) => (JSON.parse(String(r.value)) as { id: string }).id)).toEqual(records.map((r) => String(r.headers.id)));
  });
});

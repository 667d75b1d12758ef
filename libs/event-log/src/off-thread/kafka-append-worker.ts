import { workerData } from 'node:worker_threads';
import { encodeRecordedBotRequests } from '@bpc/events';
import { describeError } from '../kafka/kafka-errors';
import { openKafkaEventLog } from '../open-kafka-event-log';
import { BatchScratch } from './batch-scratch';
import type { AppendRequest, KafkaAppendWorkerOptions } from './off-thread-protocol';
import { answerCalls, ownerLog } from './worker-calls';

/**
 * Worker thread of `OffThreadKafkaAppender`: its own Kafka event log, fed
 * append by append by the main thread. Log lines go to the main thread's logger.
 */
const options = workerData as KafkaAppendWorkerOptions;
const log = ownerLog(describeError);
const eventLog = openKafkaEventLog({ brokers: options.brokers, clientId: options.clientId, namespace: options.namespace, log });
const scratch = new BatchScratch();

async function appendBatch(request: AppendRequest): Promise<void> {
  if ('events' in request) return eventLog.append(request.topic, request.events);
  // One produce request per batch: a record batch stays within what brokers take (about 1 MB by default).
  for (const batch of request.botRequests) {
    // Lent to the batch, not spread into a copy: a spread would read its `ids`, making a string of every id.
    await scratch.use(({ json, records }) => eventLog.appendEncoded(request.topic, Object.assign(encodeRecordedBotRequests(batch, json), { scratch: records })));
  }
}

answerCalls<AppendRequest, void>(
  async (request) => {
    await appendBatch(request);
    return { answer: undefined };
  },
  () => eventLog.close().catch((error: unknown) => log.warn({ err: error }, 'off-thread Kafka appender: closing the producer failed')),
);

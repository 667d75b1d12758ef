import { workerData } from 'node:worker_threads';
import { answerCalls, ownerLog } from '@bpc/support';
import { KafkaEventLog } from '../kafka-event-log';
import type { OffThreadAppend, OffThreadLogOptions } from './off-thread-appends';

/** Worker thread of `OffThreadAppends`: a Kafka event log of its own, fed append by append; its log lines go to the owner's logger. */
const log = new KafkaEventLog({ ...(workerData as OffThreadLogOptions), log: ownerLog() });

answerCalls<OffThreadAppend, void>(
  async ({ topic, events }) => {
    await log.append(topic, events);
    return { answer: undefined };
  },
  () => log.close(),
);

import { workerData } from 'node:worker_threads';
import { openKafkaEventLog } from '@bpc/event-log';
import { answerCalls, ownerLog } from '@bpc/support';
import { BotRequestRecorded, TOPICS } from '@bpc/events';
import type { KafkaSinkOptions } from './bot-request-sinks';

/** Worker thread of `kafkaBotRequestSink`: a Kafka event log of its own, fed append by append; its log lines go to the owner's logger. */
const options = workerData as KafkaSinkOptions;
const log = openKafkaEventLog({ ...options, log: ownerLog() });

answerCalls<readonly BotRequestRecorded[], void>(
  async (events) => {
    for (let start = 0; start < events.length; start += options.eventsPerAppend) await log.append(TOPICS.botRequests, events.slice(start, start + options.eventsPerAppend));
    return { answer: undefined };
  },
  () => log.close(),
);

/** Protocol errors a just-auto-created topic answers with until its leaders are elected. */
const TOPIC_NOT_READY = new Set(['UNKNOWN_TOPIC_OR_PARTITION', 'LEADER_NOT_AVAILABLE', 'NOT_LEADER_FOR_PARTITION', 'NOT_LEADER_OR_FOLLOWER']);
const TOPIC_NOT_READY_NAMES = new Set(['KafkaJSTopicMetadataNotLoaded', 'KafkaJSMetadataNotLoaded']);

/** Whether `error` (or what caused it, through kafkajs' retry wrapper) says the topic is not usable yet. */
export function isTopicNotReady(error: unknown): boolean {
  for (let current = error as { type?: string; name?: string; cause?: unknown } | undefined, depth = 0; current && depth < 5; depth += 1) {
    if ((current.type && TOPIC_NOT_READY.has(current.type)) || (current.name && TOPIC_NOT_READY_NAMES.has(current.name))) return true;
    current = current.cause as typeof current;
  }
  return false;
}

/** Whether `error` (or its cause) is kafkajs failing to reach a broker at all. */
export function isConnectionError(error: unknown): boolean {
  for (let current = error as { name?: string; cause?: unknown } | undefined, depth = 0; current && depth < 5; depth += 1) {
    if (current.name === 'KafkaJSConnectionError' || current.name === 'KafkaJSBrokerNotFound' || current.name === 'KafkaJSNoBrokerAvailableError') return true;
    current = current.cause as typeof current;
  }
  return false;
}

export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error && cause.message !== error.message ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}

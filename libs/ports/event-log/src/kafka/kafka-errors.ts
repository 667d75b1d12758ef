/** Protocol errors a just-auto-created topic answers with until its leaders are elected. */
const TOPIC_NOT_READY = new Set(['UNKNOWN_TOPIC_OR_PARTITION', 'LEADER_NOT_AVAILABLE', 'NOT_LEADER_FOR_PARTITION', 'NOT_LEADER_OR_FOLLOWER']);
const TOPIC_NOT_READY_NAMES = new Set(['KafkaJSTopicMetadataNotLoaded', 'KafkaJSMetadataNotLoaded']);

/** Whether `error` (or what caused it, through kafkajs' retry wrapper) says the topic is not usable yet. */
export function isTopicNotReady(error: unknown): boolean {
  return someCause(error, (e) => (e.type !== undefined && TOPIC_NOT_READY.has(e.type)) || (e.name !== undefined && TOPIC_NOT_READY_NAMES.has(e.name)));
}

/** Protocol errors of a produce request whose message or batch is above the brokers' size limit. */
const TOO_LARGE = new Set(['MESSAGE_TOO_LARGE', 'RECORD_LIST_TOO_LARGE']);

/** Whether `error` (or its cause) is the brokers refusing a message for its size. */
export function isMessageTooLarge(error: unknown): boolean {
  return someCause(error, (e) => e.type !== undefined && TOO_LARGE.has(e.type));
}

/** Whether `error` (or its cause) is kafkajs failing to reach a broker at all. */
export function isConnectionError(error: unknown): boolean {
  return someCause(error, (e) => e.name === 'KafkaJSConnectionError' || e.name === 'KafkaJSBrokerNotFound' || e.name === 'KafkaJSNoBrokerAvailableError');
}

export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error && cause.message !== error.message ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}

interface KafkaErrorLike {
  readonly type?: string;
  readonly name?: string;
  readonly cause?: unknown;
}

/** Whether `error` or one of its causes (kafkajs wraps the broker's error in its retry errors) matches. */
function someCause(error: unknown, matches: (error: KafkaErrorLike) => boolean): boolean {
  let current = error as KafkaErrorLike | undefined;
  for (let depth = 0; current && depth < 5; depth += 1) {
    if (matches(current)) return true;
    current = current.cause as KafkaErrorLike | undefined;
  }
  return false;
}

import { Admin, Kafka, logLevel, Producer } from 'kafkajs';
import { LogSink, silentLog, BackoffOptions, DEFAULT_HANDLER_BACKOFF, sleep } from '@bpc/support';
import type { EventEnvelope } from '@bpc/events';
import type { EventLog, Subscription, SubscriptionSpec } from './event-log.port';
import { EventTooLargeError } from './event-too-large';
import { describeError, isConnectionError, isMessageTooLarge, isTopicNotReady } from './kafka/kafka-errors';
import { kafkaMessagesOf } from './kafka/kafka-messages';
import { keyedPartitioner } from './kafka/keyed-partitioner';
import { kafkaLogCreator } from './kafka/kafka-log-creator';
import { KafkaSubscription } from './kafka/kafka-subscription';
import { OffThreadAppends } from './kafka/off-thread-appends';
import { assertTopicName } from './topic-name';

export interface KafkaEventLogOptions {
  /** `host:port` of one or more brokers. */
  readonly brokers: readonly string[];
  readonly clientId: string;
  readonly log?: LogSink;
  /** TCP connect timeout per broker, ms (default 3000). */
  readonly connectionTimeoutMs?: number;
  /** Longest `check()` takes before it reports the cluster unreachable, ms (default 5000). */
  readonly checkTimeoutMs?: number;
  /**
   * Longest a fetch waits on the broker when there is nothing new, ms
   * (default 250). It also bounds how long `stop()` waits for an idle fetch.
   */
  readonly fetchMaxWaitMs?: number;
  /** Consumer group session timeout, ms (default 30000). */
  readonly sessionTimeoutMs?: number;
  /**
   * Connection retries (kafkajs client `retry`): exponential from
   * `initialRetryTimeMs` up to `maxRetryTimeMs`. They bound how long an append
   * waits for an unreachable cluster before it rejects (a few seconds by default);
   * consumers keep reconnecting with this backoff for as long as it takes.
   */
  readonly retry?: { readonly initialRetryTimeMs?: number; readonly maxRetryTimeMs?: number; readonly retries?: number };
  /** Delays between retries of a partition whose handler failed. */
  readonly handlerBackoff?: BackoffOptions;
  /**
   * Topics appended from a worker thread, by a producer of its own with
   * client id `clientId` (so brokers can meter and quota them apart): for a
   * hot topic whose encoding would otherwise take the time of the thread
   * that serves requests (see `OffThreadAppends`). Names as this log is
   * given them (a `NamespacedEventLog` above it prefixes them first).
   */
  readonly offThread?: { readonly topics: readonly string[]; readonly clientId: string };
}

/** Events per produce request: about 600 KB of bot requests, within the 1 MB a broker takes per record batch by default. */
const EVENTS_PER_PRODUCE = 1_000;

/** Sends to a topic that is still being auto-created are retried this many times, on top of kafkajs' retries. */
const TOPIC_NOT_READY_ATTEMPTS = 10;

/**
 * Retries of requests on a reachable cluster (leader elections, rebalances),
 * separate from connection retries: kafkajs nests the two, so a long
 * connection schedule would multiply into minutes-long appends.
 */
const REQUEST_RETRY = { initialRetryTime: 300, maxRetryTime: 5_000, retries: 6 };

/**
 * The cluster-mode event log on Kafka, through kafkajs.
 *
 * - Producer with `acks: -1` (all in-sync replicas), not idempotent, topics
 *   auto-created by the brokers (no admin `createTopics`); the key is the
 *   Kafka message key and `keyedPartitioner` (kafkajs' DefaultPartitioner,
 *   with keys hashed by `partitionForKey`) maps it to a partition, exactly
 *   like the file log. The value is the JSON envelope;
 *   headers carry `type`, `version` and `id` for consumers that route on them.
 * - Sequential appends keep their order per key. Concurrent appends are sent
 *   in call order but a retried request can overtake a later one.
 * - Nothing connects at construction: the producer and the admin client
 *   connect on first use and reconnect with backoff after broker failures.
 * - Appends of more than EVENTS_PER_PRODUCE events go in several produce
 *   requests, one after the other; those of the `offThread` topics go from
 *   a worker thread with a producer of its own.
 */
export class KafkaEventLog implements EventLog {
  private readonly kafka: Kafka;
  /** Same cluster, no retries and no logging: `check()` reports the reason itself, quickly. */
  private readonly probeKafka: Kafka;
  private readonly log: LogSink;
  private readonly connectionRetry: { initialRetryTime: number; maxRetryTime: number; retries: number };
  private producerReady?: Promise<Producer>;
  private adminReady?: Promise<Admin>;
  private readonly subscriptions = new Set<KafkaSubscription>();
  private readonly appending = new Set<Promise<void>>();
  private readonly offThread?: OffThreadAppends;
  private closing?: Promise<void>;

  constructor(private readonly options: KafkaEventLogOptions) {
    if (options.brokers.length === 0) throw new Error('kafka event log: no brokers configured');
    this.log = options.log ?? silentLog;
    this.connectionRetry = {
      initialRetryTime: options.retry?.initialRetryTimeMs ?? 250,
      maxRetryTime: options.retry?.maxRetryTimeMs ?? 2_000,
      retries: options.retry?.retries ?? 4,
    };
    const client = { clientId: options.clientId, brokers: [...options.brokers], connectionTimeout: options.connectionTimeoutMs ?? 3_000 };
    this.kafka = new Kafka({ ...client, retry: this.connectionRetry, logLevel: logLevel.INFO, logCreator: kafkaLogCreator(this.log) });
    this.probeKafka = new Kafka({ ...client, retry: { retries: 0 }, logLevel: logLevel.NOTHING });
    if (options.offThread) {
      const { brokers, connectionTimeoutMs, retry } = options;
      this.offThread = new OffThreadAppends(options.offThread.topics, { brokers, clientId: options.offThread.clientId, connectionTimeoutMs, retry }, this.log);
    }
  }

  /** Resolves once every partition leader acknowledged with acks=-1. */
  append(topic: string, events: readonly EventEnvelope[]): Promise<void> {
    if (this.closing) return Promise.reject(new Error('kafka event log is closed'));
    if (events.length === 0) return Promise.resolve();
    const run = this.offThread?.takes(topic) ? this.offThread.append(topic, events) : this.send(topic, events);
    this.appending.add(run);
    void run.catch(() => undefined).finally(() => this.appending.delete(run));
    return run;
  }

  async subscribe(spec: SubscriptionSpec): Promise<Subscription> {
    if (this.closing) throw new Error('kafka event log is closed');
    if (spec.topics.length === 0) throw new Error(`subscription of ${spec.groupId} names no topic`);
    spec.topics.forEach(assertTopicName);
    const subscription: KafkaSubscription = new KafkaSubscription({
      kafka: this.kafka,
      admin: () => this.admin(),
      spec,
      fetchMaxWaitMs: this.options.fetchMaxWaitMs ?? 250,
      sessionTimeoutMs: this.options.sessionTimeoutMs ?? 30_000,
      heartbeatIntervalMs: Math.min(3_000, Math.floor((this.options.sessionTimeoutMs ?? 30_000) / 3)),
      retry: REQUEST_RETRY,
      backoff: this.options.handlerBackoff ?? DEFAULT_HANDLER_BACKOFF,
      log: this.log,
      onStopped: () => this.subscriptions.delete(subscription),
    });
    this.subscriptions.add(subscription);
    try {
      await subscription.start();
    } catch (error) {
      this.subscriptions.delete(subscription);
      // Named as the appends' errors are, so readiness says which engine a subscriber waits for.
      throw isConnectionError(error) ? new Error(`kafka unreachable (brokers ${this.options.brokers.join(',')}): ${describeError(error)}`, { cause: error }) : error;
    }
    return subscription;
  }

  /**
   * Asks the cluster for its brokers with a client that does not retry, so a
   * dead cluster is reported at once (or after `checkTimeoutMs` at worst)
   * instead of after the whole reconnect schedule, and without an error log
   * per health probe.
   */
  async check(): Promise<void> {
    if (this.closing) throw new Error('kafka event log is closed');
    const timeoutMs = this.options.checkTimeoutMs ?? 5_000;
    const probe = this.probeKafka.admin();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        probe.connect().then(() => probe.describeCluster()),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
    } catch (error) {
      throw new Error(`kafka unreachable (brokers ${this.options.brokers.join(',')}): ${describeError(error)}`);
    } finally {
      clearTimeout(timer);
      await probe.disconnect().catch(() => undefined);
    }
  }

  /** Refuses new appends, waits for the ones in flight, stops every subscription, disconnects. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    await Promise.allSettled([...this.appending]);
    await this.offThread?.close();
    await Promise.allSettled([...this.subscriptions].map((s) => s.stop()));
    const producer = this.producerReady?.catch(() => undefined);
    const admin = this.adminReady?.catch(() => undefined);
    await (await producer)?.disconnect().catch(() => undefined);
    await (await admin)?.disconnect().catch(() => undefined);
  }

  /** Sends the events in order, at most EVENTS_PER_PRODUCE per produce request. */
  private async send(topic: string, events: readonly EventEnvelope[]): Promise<void> {
    assertTopicName(topic);
    if (events.length <= EVENTS_PER_PRODUCE) return this.produce(topic, events);
    for (let start = 0; start < events.length; start += EVENTS_PER_PRODUCE) await this.produce(topic, events.slice(start, start + EVENTS_PER_PRODUCE));
  }

  /**
   * Sends with acks=-1. kafkajs already retries retriable errors; a topic the
   * brokers are still auto-creating can outlast that schedule, so those
   * errors get a few more attempts here. A retried send may store a batch
   * twice, which at-least-once consumers (deduplicating by event id) absorb.
   */
  private async produce(topic: string, events: readonly EventEnvelope[]): Promise<void> {
    const { messages, largest, compression } = kafkaMessagesOf(events);
    for (let attempt = 1; ; attempt += 1) {
      const producer = await this.producer();
      try {
        await producer.send({ topic, messages, acks: -1, compression });
        return;
      } catch (error) {
        if (isMessageTooLarge(error)) throw new EventTooLargeError(largest, undefined, { cause: error });
        if (!isTopicNotReady(error) || attempt >= TOPIC_NOT_READY_ATTEMPTS) throw this.appendError(topic, error);
        this.log.info({ topic, attempt, err: describeError(error) }, 'kafka event log: topic not ready yet, retrying the send');
        await sleep(Math.min(1_000, 50 * 2 ** attempt));
      }
    }
  }

  private appendError(topic: string, error: unknown): Error {
    const reason = describeError(error);
    return isConnectionError(error)
      ? new Error(`kafka unreachable (brokers ${this.options.brokers.join(',')}): ${reason}`, { cause: error })
      : new Error(`kafka append to ${topic} failed: ${reason}`, { cause: error });
  }

  private producer(): Promise<Producer> {
    this.producerReady ??= this.connect(
      this.kafka.producer({ createPartitioner: keyedPartitioner, idempotent: false, allowAutoTopicCreation: true, retry: REQUEST_RETRY }),
      () => (this.producerReady = undefined),
    );
    return this.producerReady;
  }

  private admin(): Promise<Admin> {
    this.adminReady ??= this.connect(this.kafka.admin({ retry: REQUEST_RETRY }), () => (this.adminReady = undefined));
    return this.adminReady;
  }

  /** Connects a client once; a failed connect is forgotten so the next call tries again. */
  private async connect<T extends { connect(): Promise<void> }>(client: T, forget: () => void): Promise<T> {
    try {
      await client.connect();
      return client;
    } catch (error) {
      forget();
      throw new Error(`kafka unreachable (brokers ${this.options.brokers.join(',')}): ${describeError(error)}`);
    }
  }
}

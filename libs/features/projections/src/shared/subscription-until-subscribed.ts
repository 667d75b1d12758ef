import { type EventLog, type Subscription } from '@bpc/event-log';
import { retryInBackground } from '@bpc/support';
import { FailureStreakLog } from '@bpc/platform';
import type { Logger } from 'pino';
import { type CheckpointedProjection, subscribeCheckpointed } from './checkpointed-projection';

/**
 * A checkpointed projection subscribed in the background, again and again
 * with the log's backoff until it is subscribed or stopped: a projector
 * started before its engines (Kafka, Redis not up yet) waits for them instead
 * of exiting and being restarted in a loop. The wait is logged once (and a
 * reminder a minute), and `lag()` rejects with what it waits for, which is
 * what readiness reports meanwhile.
 */
export class SubscriptionUntilSubscribed {
  private subscription?: Subscription;
  private waitingFor?: Error;
  private readonly stopping = new AbortController();
  private readonly firstAttempt: Promise<void>;
  private readonly done: Promise<unknown>;

  constructor(log: EventLog, projection: CheckpointedProjection, logger: Logger) {
    const name = `${projection.groupId} (${projection.topic})`;
    const streak = new FailureStreakLog(logger, 'error', `${name}: the event log or the store cannot be reached yet; waiting for them (retrying with backoff)`, `${name}: subscribed`);
    const subscribed = async (): Promise<void> => {
      this.subscription = await subscribeCheckpointed(log, projection);
      this.waitingFor = undefined;
      streak.succeeded();
    };
    ({ firstAttempt: this.firstAttempt, done: this.done } = retryInBackground(subscribed, this.stopping.signal, (error) => {
      this.waitingFor = error instanceof Error ? error : new Error(String(error));
      streak.failed(error);
    }));
  }

  /** Settles once the first attempt to subscribe has ended, either way. */
  started(): Promise<void> {
    return this.firstAttempt;
  }

  /** Events not applied yet; rejects, naming what it waits for, while not subscribed. */
  async lag(): Promise<number> {
    await this.firstAttempt;
    if (!this.subscription) throw new Error(`waiting to subscribe: ${this.waitingFor?.message ?? 'subscribing'}`);
    return this.subscription.lag();
  }

  /** Stops retrying (an attempt in flight ends first), then the subscription. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.done;
    await this.subscription?.stop();
  }
}

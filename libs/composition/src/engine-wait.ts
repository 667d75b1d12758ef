import { retryInBackground } from '@bpc/support';
import type { Logger } from 'pino';
import { FailureStreakLog } from '@bpc/platform';

/**
 * Work an adapter must get done on its engine before it is usable (the
 * ClickHouse DDL), run in the background and retried with backoff until it
 * succeeds or `stop()`: an app started before its engine (compose starting
 * every container at once, a ClickHouse still booting) waits for it instead
 * of exiting and being restarted in a loop. The wait is logged once (then a
 * reminder a minute, and a line when it ends); `assertDone` throws what it
 * waits for, which readiness reports meanwhile.
 */
export class EngineWait {
  #done = false;
  #lastError?: Error;
  readonly #stopping = new AbortController();
  readonly #finished: Promise<unknown>;

  constructor(
    /** What is awaited, for the log and readiness, e.g. "ClickHouse at http://clickhouse:8123". */
    private readonly what: string,
    work: () => Promise<void>,
    logger: Logger,
  ) {
    const streak = new FailureStreakLog(logger, 'warn', `waiting for ${what} (retrying with backoff; not ready until then)`, `${what} reached`);
    const attempt = async (): Promise<void> => {
      await work();
      this.#done = true;
      streak.succeeded();
    };
    this.#finished = retryInBackground(attempt, this.#stopping.signal, (error) => {
      this.#lastError = error instanceof Error ? error : new Error(String(error));
      streak.failed(error);
    }).done;
  }

  assertDone(): void {
    if (!this.#done) throw new Error(`waiting for ${this.what}: ${this.#lastError?.message ?? 'first attempt still running'}`);
  }

  /** Stops retrying; an attempt in flight ends first. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    await this.#finished;
  }
}

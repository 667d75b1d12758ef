import type { EventLog, FileEventLog, SubscriptionSpec } from '@bpc/event-log';

/**
 * The log a recorder talks to, swappable: a closed file log (it refuses
 * every append, as an unreachable log does), then a file log reopened on the
 * same directory (the log is back). Both are the real adapter.
 */
export class SwappableLog implements EventLog {
  /** Appends the current log refused. */
  refused = 0;
  constructor(public current: FileEventLog) {}
  append(topic: string, events: Parameters<EventLog['append']>[1]): Promise<void> {
    return this.current.append(topic, events).catch((error: unknown) => {
      this.refused += 1;
      throw error;
    });
  }
  subscribe(spec: SubscriptionSpec): ReturnType<EventLog['subscribe']> {
    return this.current.subscribe(spec);
  }
  check(): Promise<void> {
    return this.current.check();
  }
  close(): Promise<void> {
    return this.current.close();
  }
}

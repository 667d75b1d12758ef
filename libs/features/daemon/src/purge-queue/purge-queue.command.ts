import type { Priority } from '@bpc/domain';

/** Remove queued entries of a host, by priority. */
export class PurgeQueue {
  constructor(
    readonly hostId: number,
    readonly priorities: readonly Priority[] | undefined,
  ) {}
}

export interface QueuePurgedResult {
  readonly entries_purged: number;
}

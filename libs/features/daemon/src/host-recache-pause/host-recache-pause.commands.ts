/** Stop draining one host for three hours (queues keep accepting work). */
export class PauseHostRecache {
  constructor(readonly hostId: number) {}
}

/** Drain one host again from the next tick; idempotent. */
export class ResumeHostRecache {
  constructor(readonly hostId: number) {}
}

export interface HostPausedResult {
  readonly paused: true;
  /** Unix seconds. */
  readonly expires_at: number;
}

export interface HostResumedResult {
  readonly paused: false;
}

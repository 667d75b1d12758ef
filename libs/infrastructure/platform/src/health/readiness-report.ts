/** One check's outcome, as `/health/ready` reports it. */
export type ReadinessEntry = { readonly status: 'up' } & Readonly<Record<string, unknown>>;
export type ReadinessEntryDown = { readonly status: 'down'; readonly reason: string };

export interface CheckOutcome {
  readonly name: string;
  readonly critical: boolean;
  readonly result: { ok: true; details?: Record<string, unknown> } | { ok: false; reason: string };
}

/**
 * The body of `/health/ready`, terminus' shape plus `degraded`: `info` what
 * is up, `error` the critical checks that are down (503), `degraded` the
 * non-critical ones that are down (still 200), `details` every check.
 */
export interface ReadinessReport {
  readonly status: 'ok' | 'degraded' | 'error';
  readonly info: Record<string, ReadinessEntry>;
  readonly degraded: Record<string, ReadinessEntryDown>;
  readonly error: Record<string, ReadinessEntryDown>;
  readonly details: Record<string, ReadinessEntry | ReadinessEntryDown>;
}

/** Not ready: only a critical check that is down makes the answer 503. */
export function readinessReport(outcomes: readonly CheckOutcome[]): ReadinessReport {
  const report: ReadinessReport = { status: 'ok', info: {}, degraded: {}, error: {}, details: {} };
  for (const { name, critical, result } of outcomes) {
    if (result.ok) {
      report.info[name] = report.details[name] = { ...result.details, status: 'up' };
      continue;
    }
    const down: ReadinessEntryDown = { status: 'down', reason: result.reason };
    (critical ? report.error : report.degraded)[name] = report.details[name] = down;
  }
  const status = Object.keys(report.error).length > 0 ? 'error' : Object.keys(report.degraded).length > 0 ? 'degraded' : 'ok';
  return { ...report, status };
}

/** Once shutdown has begun every app answers not ready, before its server stops accepting. */
export function shuttingDownReport(): ReadinessReport {
  const down: ReadinessEntryDown = { status: 'down', reason: 'the process is shutting down' };
  return { status: 'error', info: {}, degraded: {}, error: { shutdown: down }, details: { shutdown: down } };
}

/**
 * A dependency readiness depends on: `check` resolves when usable (optionally
 * with details to report, such as a projection's lag), rejects with the
 * reason otherwise. `critical: false` (default true): when it is down the app
 * still does its main job, so it is reported as degraded and readiness stays 200.
 */
export interface ReadinessCheck {
  readonly name: string;
  readonly critical?: boolean;
  check(): Promise<void | Record<string, unknown>>;
}

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

/** Runs a check with a deadline so a hung dependency reports down instead of hanging the probe. */
export async function runCheck(
  check: ReadinessCheck,
  timeoutMs: number,
): Promise<{ ok: true; details?: Record<string, unknown> } | { ok: false; reason: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const details = await Promise.race([check.check(), timeout]);
    return details ? { ok: true, details } : { ok: true };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

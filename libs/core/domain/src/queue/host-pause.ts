/** A host pause lasts three hours, fixed and not configurable; a new pause starts a fresh three hours. */
export const HOST_PAUSE_MS = 3 * 60 * 60 * 1000;

export function pauseDeadline(now: number): number {
  return now + HOST_PAUSE_MS;
}

/** `expires_at` of the daemon API: unix seconds. */
export function toUnixSeconds(epochMs: number): number {
  return Math.floor(epochMs / 1000);
}

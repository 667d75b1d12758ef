/**
 * Webhook delivery rules (docs/alerts.md): which answers count as delivered,
 * which are tried again, and when.
 */

/** Tries of one alert, the first included. */
export const DELIVERY_ATTEMPTS = 5;

/** An alert never tried this long after it was raised is not tried any more (a webhook added again long after its alerts were raised must not receive them all). */
export const FIRST_TRY_WITHIN_MS = 24 * 3600_000;

/** Minutes before try n+1 after try n failed: 2, 4, 8, 16 — the last try about 30 minutes after the first. */
export function retryDelayMs(attempt: number): number {
  return 2 ** attempt * 60_000;
}

export type DeliveryStatus = 'delivered' | 'retrying' | 'failed';

/** What one try got: an HTTP status, or no answer (refused, timed out, connection error). */
export type DeliveryAnswer =
  | { readonly httpStatus: number }
  /** `error` goes to the delivery log (customers read it); `detail`, the connection's own error with addresses, only to the operators' log. */
  | { readonly error: string; readonly detail?: string };

/**
 * 2xx is delivered. 408, 429, 5xx and no answer are tried again (the receiver
 * may be down or busy) until the tries run out; any other answer (a 3xx, a
 * 4xx: the receiver refuses this body, or the target is wrong) fails at once,
 * since the same body would be refused again.
 */
export function deliveryStatus(answer: DeliveryAnswer, attempt: number): DeliveryStatus {
  if ('httpStatus' in answer && answer.httpStatus >= 200 && answer.httpStatus < 300) return 'delivered';
  const retryable = !('httpStatus' in answer) || answer.httpStatus === 408 || answer.httpStatus === 429 || answer.httpStatus >= 500;
  return retryable && attempt < DELIVERY_ATTEMPTS ? 'retrying' : 'failed';
}

/** When the next try is due after `attempt` ended at `endedAt` with `status`; undefined when there is none. */
export function nextAttemptAt(status: DeliveryStatus, attempt: number, endedAt: number): number | undefined {
  return status === 'retrying' ? endedAt + retryDelayMs(attempt) : undefined;
}

import { request } from 'undici';
import type { Alert, DeliveryAnswer } from '@bpc/domain';
import { CheckedDispatchers, EgressRefused } from '@bpc/egress';
import type { AlertTarget } from '../alert-targets';
import { ALERT_ID_HEADER, alertSignature, SIGNATURE_HEADER } from './alert-signature';

/** Longest one try may take, connecting and the whole answer included. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** Longest error text kept in the delivery log. */
const MAX_ERROR_LENGTH = 300;

/**
 * POSTs signed alert bodies to websites' webhooks through the renderer's
 * egress check: each connection resolves the host once, checks every address
 * and connects to the checked one, so a webhook name that later resolves to
 * an internal address is refused at connect time (unless the website allows
 * its internal target). Redirects are not followed.
 */
export class WebhookClient {
  /** One per website: its rules are its own. */
  private readonly dispatchers = new CheckedDispatchers();

  async post(target: AlertTarget, alert: Alert, nowMs: number): Promise<DeliveryAnswer> {
    const body = JSON.stringify(alert);
    try {
      const answer = await request(target.url, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'bpc-alerts/1',
          [SIGNATURE_HEADER]: alertSignature(target.secret, body, Math.floor(nowMs / 1000)),
          [ALERT_ID_HEADER]: alert.id,
        },
        dispatcher: this.dispatchers.for(target.rules, target.website),
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
        headersTimeout: WEBHOOK_TIMEOUT_MS,
        bodyTimeout: WEBHOOK_TIMEOUT_MS,
      });
      await answer.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      return { httpStatus: answer.statusCode };
    } catch (error) {
      return { error: publicReason(error), detail: describe(error) };
    }
  }

  async close(): Promise<void> {
    await this.dispatchers.close();
  }
}

/** The innermost cause (undici wraps a refused connection: its cause says why). */
function rootCause(error: unknown): unknown {
  let current: unknown = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current;
}

/** The root cause in words, addresses included: for the operators' log. */
function describe(error: unknown): string {
  const current = rootCause(error);
  const text = current instanceof Error ? `${current.name === 'Error' ? '' : `${current.name}: `}${current.message}` : String(current);
  return text.slice(0, MAX_ERROR_LENGTH);
}

/**
 * Why there was no answer, as the delivery log (customer-facing) shows it:
 * an egress refusal without the address the name resolved to, a connection
 * error by its code only (`ECONNREFUSED`), never an address of the network.
 */
function publicReason(error: unknown): string {
  const current = rootCause(error);
  if (current instanceof EgressRefused) return "refused: the webhook's address is internal or denied by the service's egress rules";
  const name = current instanceof Error ? current.name : '';
  const code = (current as { code?: unknown } | undefined)?.code;
  if (name === 'TimeoutError' || name === 'AbortError' || (typeof code === 'string' && code.endsWith('_TIMEOUT'))) return `no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s`;
  if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code)) return `no answer (${code})`;
  return 'no answer (connection error)';
}

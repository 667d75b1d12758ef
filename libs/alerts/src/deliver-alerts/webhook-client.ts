import { request, type Dispatcher } from 'undici';
import type { Alert, DeliveryAnswer } from '@bpc/domain';
import { checkedDispatcher } from '@bpc/renderer';
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
  private readonly dispatchers = new Map<string, Dispatcher>();

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
        dispatcher: this.dispatcherOf(target),
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
        headersTimeout: WEBHOOK_TIMEOUT_MS,
        bodyTimeout: WEBHOOK_TIMEOUT_MS,
      });
      await answer.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      return { httpStatus: answer.statusCode };
    } catch (error) {
      return { error: describe(error) };
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.dispatchers.values()].map((d) => d.close().catch(() => undefined)));
    this.dispatchers.clear();
  }

  private dispatcherOf(target: AlertTarget): Dispatcher {
    let dispatcher = this.dispatchers.get(target.website);
    if (!dispatcher) {
      dispatcher = checkedDispatcher(target.rules);
      this.dispatchers.set(target.website, dispatcher);
    }
    return dispatcher;
  }
}

/** The root cause in words (undici wraps a refused connection: its cause says why). */
function describe(error: unknown): string {
  let current: unknown = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  const text = current instanceof Error ? `${current.name === 'Error' ? '' : `${current.name}: `}${current.message}` : String(current);
  return text.slice(0, MAX_ERROR_LENGTH);
}

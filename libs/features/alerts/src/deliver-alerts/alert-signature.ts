import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-bpc-signature';
export const ALERT_ID_HEADER = 'x-bpc-alert-id';

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`: the
 * timestamp is signed with the body, so a receiver that rejects old
 * timestamps cannot be sent a captured delivery again later.
 */
export function alertSignature(secret: string, rawBody: string, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest('hex')}`;
}

/**
 * What a receiver does (docs/alerts.md has the same recipe): recompute the
 * HMAC over the raw body, compare in constant time, and refuse a timestamp
 * more than `toleranceSeconds` away from its own clock.
 */
export function verifyAlertSignature(secret: string, rawBody: string, header: string | undefined, nowSeconds: number, toleranceSeconds = 300): boolean {
  const parts = new Map((header ?? '').split(',').map((part) => part.split('=', 2) as [string, string]));
  const t = Number(parts.get('t'));
  const v1 = parts.get('v1') ?? '';
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds || !/^[0-9a-f]{64}$/.test(v1)) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  return timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}

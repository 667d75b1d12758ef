import { createHmac, timingSafeEqual } from 'node:crypto';

export const DOWNLOAD_PATH = '/exports/download';

export type LinkCheck = 'ok' | 'tampered' | 'expired';

/**
 * Signed download links: `/exports/download/{exportId}?expires={unix s}&sig={hex}`
 * where `sig = HMAC-SHA256(key, "{exportId}.{fileId}.{expires}")`. The
 * random `fileId` of the export is inside the MAC and never in the URL, so a
 * link for one file cannot be turned into a link for another by editing the
 * id, and links minted before a data directory was wiped open nothing.
 */
export function signDownload(key: Buffer, exportId: number, fileId: string, expiresSec: number): string {
  return createHmac('sha256', key).update(`${exportId}.${fileId}.${expiresSec}`).digest('hex');
}

export function checkDownload(key: Buffer, exportId: number, fileId: string, expires: string | undefined, sig: string | undefined, nowMs: number): LinkCheck {
  if (!expires || !/^\d{1,12}$/.test(expires) || !sig || !/^[0-9a-f]{64}$/.test(sig)) return 'tampered';
  const expected = Buffer.from(signDownload(key, exportId, fileId, Number(expires)), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(sig, 'hex'))) return 'tampered';
  return Number(expires) * 1000 <= nowMs ? 'expired' : 'ok';
}

/** ISO 8601 with an explicit offset (`+00:00`), as the record's `expiresAt`. */
export function isoWithOffset(ms: number): string {
  return new Date(ms).toISOString().replace(/Z$/, '+00:00');
}

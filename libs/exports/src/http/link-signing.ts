import { createHmac } from 'node:crypto';
import type { AppConfig } from '@bpc/config';

/**
 * HMAC key of download links: `exports.signing_key` when configured, else
 * derived from the internal auth key's hash (a secret every deployment has),
 * so replicas sharing a configuration accept each other's links.
 */
export function linkSigningKey(config: AppConfig): Buffer {
  if (config.exports.signing_key) return Buffer.from(config.exports.signing_key, 'utf8');
  return createHmac('sha256', config.internal_auth_key_sha256).update('bpc export download links v1').digest();
}

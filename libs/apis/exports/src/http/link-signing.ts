import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Provider } from '@nestjs/common';
import type { AppConfig } from '@bpc/config';
import { createFileAtomic } from '@bpc/durable-fs';
import { APP_CONFIG } from '@bpc/platform';

/** Where standalone mode keeps the key it made (one process signs and checks every link). */
export const LINK_KEY_FILE = 'exports-link-signing-key';

/** The HMAC key of download links (a `Buffer`), made or read once at start-up. */
export const LINK_SIGNING_KEY = Symbol('LINK_SIGNING_KEY');

export const linkSigningKeyProvider: Provider = {
  provide: LINK_SIGNING_KEY,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => linkSigningKey(config),
};

/**
 * HMAC key of download links: `exports.signing_key` when configured (the
 * configuration requires it with the Kafka event log). Otherwise, in
 * standalone mode, 32 random bytes made on first use and kept in the data
 * directory (owner-only), so links survive a restart; nothing in the
 * configuration (which may be widely readable) lets anyone forge them.
 */
export async function linkSigningKey(config: AppConfig): Promise<Buffer> {
  if (config.exports.signing_key) return Buffer.from(config.exports.signing_key, 'utf8');
  const file = path.join(config.data_dir, LINK_KEY_FILE);
  const key = randomBytes(32);
  // Linked into place whole, or not at all when a key exists: a crash or a full disk never leaves a partial key file.
  return (await createFileAtomic(file, key.toString('base64url'), 0o600)) ? key : await readKey(file);
}

async function readKey(file: string): Promise<Buffer> {
  const key = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64url');
  if (key.length < 32) throw new Error(`${file} does not hold a link signing key (32 bytes, base64url): remove it to make a new one`);
  return key;
}

import { randomBytes } from 'node:crypto';
import { sha256Hex } from '@bpc/domain';

/** Recognisable prefix, so secret scanners and humans can tell a token from other strings. */
export const TOKEN_PREFIX = 'bpc_';
const TOKEN_SHAPE = /^bpc_(tok_[0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export interface NewApiToken {
  readonly tokenId: string;
  /** The whole secret: shown once, never stored. */
  readonly token: string;
  readonly sha256: string;
}

/**
 * `bpc_<tokenId>_<43 base64url chars = 32 random bytes>`. The id part lets
 * the server find the one stored hash to compare, so the comparison itself is
 * a single constant-time digest check.
 */
export function newApiToken(random: (size: number) => Buffer = randomBytes): NewApiToken {
  const tokenId = `tok_${random(8).toString('hex')}`;
  const token = `${TOKEN_PREFIX}${tokenId}_${random(32).toString('base64url')}`;
  return { tokenId, token, sha256: sha256Hex(token) };
}

/** The token id a presented token claims, or undefined when it is not shaped like one of ours. */
export function tokenIdOf(presented: string): string | undefined {
  return TOKEN_SHAPE.exec(presented)?.[1];
}

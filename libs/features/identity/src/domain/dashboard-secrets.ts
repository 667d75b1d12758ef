import { createHmac, randomBytes } from 'node:crypto';
import { digestsEqual, sha256Hex } from '@bpc/domain';
import { TOKEN_PREFIX } from './api-token';

const SESSION_SHAPE = /^bpc_(ses_[0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
const LINK_SHAPE = /^bpc_(lnk_[0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
/** Fixed label of the CSRF token's HMAC, so the token is no other value derived from the secret. */
const CSRF_LABEL = 'bpc dashboard csrf v1';

export interface NewSecret {
  /** The public id part (`ses_…` or `lnk_…`): the record is found by it. */
  readonly id: string;
  /** The whole secret: handed out once, never stored. */
  readonly secret: string;
  readonly sha256: string;
}

function newSecret(kind: 'ses' | 'lnk', random: (size: number) => Buffer): NewSecret {
  const id = `${kind}_${random(8).toString('hex')}`;
  const secret = `${TOKEN_PREFIX}${id}_${random(32).toString('base64url')}`;
  return { id, secret, sha256: sha256Hex(secret) };
}

/** `bpc_ses_<16 hex>_<32 random bytes, base64url>`: the dashboard session cookie's value, shaped like an API token. */
export function newSessionSecret(random: (size: number) => Buffer = randomBytes): NewSecret {
  return newSecret('ses', random);
}

/** `bpc_lnk_<16 hex>_<32 random bytes, base64url>`: the secret of a one-time sign-in link. */
export function newSignInLinkSecret(random: (size: number) => Buffer = randomBytes): NewSecret {
  return newSecret('lnk', random);
}

/** The session id a presented cookie claims, or undefined when it is not shaped like one of ours. */
export function sessionIdOf(presented: string): string | undefined {
  return SESSION_SHAPE.exec(presented)?.[1];
}

/** The link id a presented sign-in secret claims, or undefined when it is not shaped like one of ours. */
export function linkIdOf(presented: string): string | undefined {
  return LINK_SHAPE.exec(presented)?.[1];
}

/**
 * The session's CSRF token: hex HMAC-SHA256 of a fixed label keyed by the
 * session secret. Derived, so nothing more is stored; only a holder of the
 * cookie's value (the page, through GET /api/session) can know it, and a
 * cross-site form cannot read it.
 */
export function csrfTokenOf(sessionSecret: string): string {
  return createHmac('sha256', sessionSecret).update(CSRF_LABEL).digest('hex');
}

/** Whether a presented CSRF header matches the session's token, in constant time. */
export function matchesCsrfToken(sessionSecret: string, presented: string | undefined): boolean {
  if (presented === undefined || !/^[0-9a-f]{64}$/.test(presented)) return false;
  return digestsEqual(Buffer.from(presented, 'hex'), Buffer.from(csrfTokenOf(sessionSecret), 'hex'));
}

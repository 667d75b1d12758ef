import { createBotClassifier, type BotIdentity } from '@bpc/bots';
import type { BotVerifier, Verification } from '@bpc/bot-verification';
import type { ClientAddresses } from '../client-address/client-address';

/** A bot as its User-Agent names it, and whether its operator's claim is proven (`yes`), proven false (`no`) or not known. */
export interface ClaimedBot {
  readonly identity: BotIdentity;
  readonly verified: Verification;
}

/**
 * Names each request's bot and checks its claim, without waiting: the
 * classifier's and the verifier's answers are cached reads (a check that
 * needs DNS runs in the background and answers `unknown` meanwhile). Only
 * bots their operator's method covers are checked (`VERIFIABLE_BOTS`:
 * Googlebot yes, Google's HeadlessChrome no), and the client address is
 * worked out only for them.
 */
export class ClaimedBots {
  /** Compiled here, at boot, so no request pays for it; answers are cached per User-Agent. */
  private readonly classify = createBotClassifier();

  constructor(
    private readonly verifier: BotVerifier,
    private readonly addresses: ClientAddresses,
  ) {}

  of(userAgent: string, peerAddress: string | undefined, forwardedFor: string | readonly string[] | undefined): ClaimedBot {
    const identity = this.classify(userAgent);
    if (!this.verifier.checks(identity.operator, identity.name)) return { identity, verified: 'unknown' };
    return { identity, verified: this.verifier.verify(identity.operator, this.addresses.of(peerAddress, forwardedFor)) };
  }
}

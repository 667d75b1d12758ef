import type { SpoofedBotPolicy } from '@bpc/config';
import type { Verification } from '@bpc/bot-verification';

/** What the edge may do for a request: serve it like any bot's, serve only what is cached (never render), or refuse it. */
export type ServingLeave = 'serve' | 'cached_only' | 'refuse';

/**
 * The website's policy applies only to claims proven false (`no`): a claim
 * that is proven, or that cannot be checked (no address, an operator with no
 * published method, a check not done yet), is served like any bot's.
 */
export function servingLeave(verified: Verification, policy: SpoofedBotPolicy): ServingLeave {
  if (verified !== 'no') return 'serve';
  switch (policy) {
    case 'render':
      return 'serve';
    case 'serve_cached_only':
      return 'cached_only';
    case 'refuse':
      return 'refuse';
  }
}

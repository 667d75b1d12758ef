import { mayCrawl } from '@bpc/robots-txt';
import { robotsTokenKey, type RobotsSnapshot } from './site-robots-txt';

/**
 * How a site's robots.txt treats one bot: `blocked` (it may not fetch `/`),
 * `partly_disallowed` (it may fetch `/` but not some of the paths tried),
 * `allowed` (every path tried), `unknown` (no robots.txt we could judge).
 */
export const ROBOTS_STANCES = ['allowed', 'partly_disallowed', 'blocked', 'unknown'] as const;
export type RobotsStance = (typeof ROBOTS_STANCES)[number];

export interface RobotsVerdict {
  readonly stance: RobotsStance;
  /** The paths tried that it may not fetch, in the order tried (`/` alone when blocked). */
  readonly disallowedPaths: readonly string[];
  /** The file has a group of its own for it (else it follows the rules for all bots, `*`). */
  readonly named: boolean;
}

const UNKNOWN: RobotsVerdict = { stance: 'unknown', disallowedPaths: [], named: false };

/** The paths tried on every bot: `/`, those the file disallows, then the site's most requested ones (each once). */
export function pathsToTry(snapshot: RobotsSnapshot, requestedPaths: readonly string[]): string[] {
  return [...new Set(['/', ...snapshot.disallowPaths, ...requestedPaths])];
}

/**
 * Each token's verdict on `paths` of `origin` (pure). Bots without a group of
 * their own read the `*` group, so they are judged once together: a file
 * of many rules costs one pass per group, not per bot.
 */
export function robotsVerdicts(snapshot: RobotsSnapshot, origin: string, tokens: readonly string[], paths: readonly string[]): Map<string, RobotsVerdict> {
  const byGroup = new Map<string, RobotsVerdict>();
  const verdicts = new Map<string, RobotsVerdict>();
  const { file } = snapshot;
  for (const token of tokens) {
    if (file === null) {
      verdicts.set(token, UNKNOWN);
      continue;
    }
    const key = robotsTokenKey(token);
    const group = snapshot.namedTokens.has(key) ? key : '*';
    let verdict = byGroup.get(group);
    if (!verdict) {
      const disallowed = paths.filter((path) => !mayCrawl(file, token, `${origin}${path}`));
      const named = group !== '*';
      verdict = disallowed.includes('/') ? { stance: 'blocked', disallowedPaths: ['/'], named } : { stance: disallowed.length > 0 ? 'partly_disallowed' : 'allowed', disallowedPaths: disallowed, named };
      byGroup.set(group, verdict);
    }
    verdicts.set(token, verdict);
  }
  return verdicts;
}

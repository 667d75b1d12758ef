import type { UrlMatcher } from '../api/types';

export type MatcherKind = 'prefix' | 'pattern';

/**
 * The body part that names which cache entries a search or an invalidation
 * is about: a URL prefix, or an RE2 pattern (the API checks its syntax and
 * answers 400 with `field: "pattern"`). Undefined while the text is empty.
 */
export function matcherBody(kind: MatcherKind, text: string): UrlMatcher | undefined {
  const value = kind === 'prefix' ? text.trim() : text;
  if (value.trim() === '') return undefined;
  return kind === 'prefix' ? { prefix: value } : { pattern: value };
}

/** Words for what a matcher matches. */
export function matcherText(matcher: UrlMatcher): string {
  return matcher.prefix !== undefined ? `URLs starting with ${matcher.prefix}` : `URLs matching ${matcher.pattern}`;
}

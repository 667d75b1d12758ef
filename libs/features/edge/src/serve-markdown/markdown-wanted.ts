import type { CacheEntry } from '@bpc/cache-store';

/**
 * Whether a stored answer has a Markdown form: a render (the DOM after
 * scripts ran) answered 2xx as HTML. Redirects, 4xx, and bypasses (the
 * origin's answer as it came, which may be anything) keep their answer.
 */
export function convertsToMarkdown(entry: Pick<CacheEntry, 'kind' | 'statusCode' | 'headers'>): boolean {
  if (entry.kind !== 'render' || entry.statusCode < 200 || entry.statusCode > 299) return false;
  const contentType = entry.headers['content-type'];
  return contentType === undefined || /^\s*(text\/html|application\/xhtml\+xml)\b/i.test(contentType);
}

/** A website's `markdown_for_agents` tokens, lower-cased once. */
export const agentTokensOf = (tokens: readonly string[]): readonly string[] => tokens.map((token) => token.toLowerCase());

/** The User-Agent names one of the listed agents (case-insensitive, anywhere in it, as prerender-node matches crawlers). */
export function isListedAgent(tokens: readonly string[], userAgent: string): boolean {
  if (tokens.length === 0) return false;
  const lower = userAgent.toLowerCase();
  return tokens.some((token) => lower.includes(token));
}

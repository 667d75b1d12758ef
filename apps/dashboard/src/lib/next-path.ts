/** Where sign-in sends the user back to: a path of this dashboard only (never another origin). */
export function safeNextPath(next: string | null | undefined): string | undefined {
  if (!next || !next.startsWith('/') || next.startsWith('//')) return undefined;
  // URL parsers drop tabs and newlines and read `\` as `/`: `/<tab>/evil.example` and `/\evil.example` are `//evil.example`,
  // another origin. So the path is judged as the browser reads it, and no control character passes.
  if ([...next].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return undefined;
  const url = new URL(next, SAME_ORIGIN);
  if (url.origin !== SAME_ORIGIN || url.pathname.startsWith('/sign-in')) return undefined;
  return next;
}

/** Any fixed origin: only whether a path stays on it matters. */
const SAME_ORIGIN = 'http://dashboard.invalid';

export function signInPath(next: string): string {
  const safe = safeNextPath(next);
  return safe && safe !== '/' ? `/sign-in?next=${encodeURIComponent(safe)}` : '/sign-in';
}

/** The `#link=<secret>` of a sign-in link, if the URL carries one. */
export function linkFromHash(hash: string): string | undefined {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const link = params.get('link');
  return link ? link : undefined;
}

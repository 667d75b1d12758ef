/** Where sign-in sends the user back to: a path of this dashboard only (never another origin). */
export function safeNextPath(next: string | null | undefined): string | undefined {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return undefined;
  if (next.startsWith('/sign-in')) return undefined;
  return next;
}

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

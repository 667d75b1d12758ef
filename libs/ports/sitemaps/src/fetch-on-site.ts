import { request, type Dispatcher } from 'undici';
import { normalizeHttpUrl } from '@bpc/domain';
import { EgressRefused, originUrl, publicLocation, refusalOfUrl, type EgressRules } from '@bpc/egress';

/** The website whose files (sitemaps, robots.txt) are read: where its pages live and how they are fetched. */
export interface SitemapSite {
  /** The host's hostnames: files (and redirects) must stay on them. */
  readonly hostnames: readonly string[];
  /** The host's configured origin: fetched instead of the public hostname, as renders are. */
  readonly origin?: string;
}

/** Whether a public URL belongs to the website: on one of its hostnames, or exactly its configured origin. */
export function isOnSite(url: URL, site: SitemapSite): boolean {
  if (site.hostnames.some((name) => name.toLowerCase() === url.hostname)) return true;
  return site.origin !== undefined && url.origin === new URL(site.origin).origin;
}

export interface OnSiteFetch {
  readonly site: SitemapSite;
  readonly rules: EgressRules;
  readonly dispatcher: Dispatcher;
  readonly signal: AbortSignal;
  readonly userAgent: string;
  readonly accept: string;
  /** What the caller can decode; the default is what `readXmlBody` undoes. */
  readonly acceptEncoding?: string;
  /** Redirects followed, each checked like the first request. */
  readonly maxRedirects: number;
}

/**
 * Fetches one file of a website where the renderer would fetch the page: the
 * configured origin (path and query kept), else the public URL itself,
 * through the checked dispatcher (every address checked at connect time).
 * Redirects are followed by hand, at most `maxRedirects`, each target checked
 * again: it must stay on the website (its hostnames or its origin), else the
 * fetch is refused — a customer's file does not get to send our fetch to
 * another host. Refusals are the caller's error type (`refuse`), with a
 * reason fit for the customer. The answer's body is the caller's to read.
 */
export async function fetchOnSite(publicUrl: URL, fetch: OnSiteFetch, refuse: (reason: string) => Error): Promise<{ readonly url: URL; readonly response: Dispatcher.ResponseData }> {
  let current = publicUrl;
  for (let redirects = 0; ; redirects += 1) {
    const onOrigin = fetch.site.origin !== undefined && current.origin === new URL(fetch.site.origin).origin;
    const target = onOrigin ? current : originUrl(current, fetch.site.origin);
    const refusal = refusalOfUrl(target, fetch.rules);
    if (refusal) throw refuse(`${current.href}: refused: ${refusal}`);
    const response = await send(target, current, fetch, refuse);
    if (response.statusCode >= 300 && response.statusCode < 400 && response.headers.location) {
      await response.body.dump().catch(() => undefined);
      if (redirects >= fetch.maxRedirects) throw refuse(`${publicUrl.href}: more than ${fetch.maxRedirects} redirects`);
      const location = publicLocation(String(response.headers.location), target, current);
      const next = normalizeHttpUrl(location);
      if (!next || !isOnSite(next, fetch.site)) throw refuse(`${current.href} redirects to another host (${next?.host ?? location.slice(0, 200)})`);
      next.hash = '';
      current = next;
      continue;
    }
    return { url: current, response };
  }
}

async function send(target: URL, current: URL, fetch: OnSiteFetch, refuse: (reason: string) => Error): Promise<Dispatcher.ResponseData> {
  try {
    return await request(target, {
      method: 'GET',
      dispatcher: fetch.dispatcher,
      signal: fetch.signal,
      headers: { 'user-agent': fetch.userAgent, accept: fetch.accept, 'accept-encoding': fetch.acceptEncoding ?? 'gzip, deflate, br' },
    });
  } catch (error) {
    throw refuse(`${current.href}: ${networkReason(error, fetch.signal)}`);
  }
}

/**
 * Why a fetch failed, for the API's caller: the refusal without the address a
 * name resolved to (the answer would otherwise tell a customer what the
 * service's resolver says about any name they point theirs at, an internal
 * one included), and a connection error by its code alone, never its text
 * (which names addresses).
 */
export function networkReason(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return 'timed out';
  const cause = (error as { cause?: unknown }).cause;
  if (error instanceof EgressRefused || cause instanceof EgressRefused) {
    return `refused: ${(error instanceof EgressRefused ? error : (cause as EgressRefused)).message.replace(/ resolves to an internal address \(.*\)$/s, ' resolves to an internal address')}`;
  }
  const code = (error as { code?: unknown }).code ?? (cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code) ? `could not be fetched (${code})` : 'could not be fetched (connection error)';
}

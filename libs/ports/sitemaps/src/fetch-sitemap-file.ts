import { request, type Dispatcher } from 'undici';
import { normalizeHttpUrl } from '@bpc/domain';
import { EgressRefused, originUrl, publicLocation, refusalOfUrl, type EgressRules } from '@bpc/egress';
import { SitemapParser, type ParsedSitemap } from './parse-sitemap';
import { readXmlBody } from './read-xml-body';
import { SitemapRefused, type SitemapLimits } from './sitemap-limits';

/** The website whose sitemap is read: where its pages live and how they are fetched. */
export interface SitemapSite {
  /** The host's hostnames: sitemaps (and redirects) must stay on them. */
  readonly hostnames: readonly string[];
  /** The host's configured origin: fetched instead of the public hostname, as renders are. */
  readonly origin?: string;
}

export interface SitemapFileFetch {
  readonly site: SitemapSite;
  readonly rules: EgressRules;
  readonly dispatcher: Dispatcher;
  readonly limits: SitemapLimits;
  readonly signal: AbortSignal;
  readonly userAgent: string;
}

/** Whether a public URL belongs to the website: on one of its hostnames, or exactly its configured origin. */
export function isOnSite(url: URL, site: SitemapSite): boolean {
  if (site.hostnames.some((name) => name.toLowerCase() === url.hostname)) return true;
  return site.origin !== undefined && url.origin === new URL(site.origin).origin;
}

/** A sitemap URL the website may be read from, or `SitemapRefused` saying why not. */
export function sitemapUrlOf(raw: string, site: SitemapSite): URL {
  const url = normalizeHttpUrl(raw);
  if (!url) throw new SitemapRefused(`${JSON.stringify(raw.slice(0, 200))} is not an absolute http(s) URL`);
  if (!isOnSite(url, site)) throw new SitemapRefused(`${url.host} is not one of the website's hostnames (${site.hostnames.join(', ')})`);
  url.hash = '';
  return url;
}

/**
 * Fetches and parses one sitemap file. It is fetched where the renderer
 * would fetch the page: the configured origin (path and query kept), else the
 * public URL itself, through the checked dispatcher (every address checked at
 * connect time). Redirects are followed by hand, at most `maxRedirects`, each
 * target checked again: it must stay on the website (its hostnames or its
 * origin), else the file is refused — a sitemap does not get to send the
 * fetch to another host. Anything but a 200 with a sitemap body is refused.
 */
export async function fetchSitemapFile(publicUrl: URL, fetch: SitemapFileFetch): Promise<ParsedSitemap> {
  let current = publicUrl;
  for (let redirects = 0; ; redirects += 1) {
    const onOrigin = fetch.site.origin !== undefined && current.origin === new URL(fetch.site.origin).origin;
    const target = onOrigin ? current : originUrl(current, fetch.site.origin);
    const refusal = refusalOfUrl(target, fetch.rules);
    if (refusal) throw new SitemapRefused(`${current.href}: refused: ${refusal}`);
    const response = await send(target, current, fetch);
    if (response.statusCode >= 300 && response.statusCode < 400 && response.headers.location) {
      await response.body.dump().catch(() => undefined);
      if (redirects >= fetch.limits.maxRedirects) throw new SitemapRefused(`${publicUrl.href}: more than ${fetch.limits.maxRedirects} redirects`);
      const location = publicLocation(String(response.headers.location), target, current);
      const next = normalizeHttpUrl(location);
      if (!next || !isOnSite(next, fetch.site)) throw new SitemapRefused(`${current.href} redirects to another host (${next?.host ?? location.slice(0, 200)})`);
      next.hash = '';
      current = next;
      continue;
    }
    return parseResponse(current, response, fetch);
  }
}

async function send(target: URL, current: URL, fetch: SitemapFileFetch): Promise<Dispatcher.ResponseData> {
  try {
    return await request(target, {
      method: 'GET',
      dispatcher: fetch.dispatcher,
      signal: fetch.signal,
      headers: { 'user-agent': fetch.userAgent, accept: 'application/xml, text/xml;q=0.9, */*;q=0.1', 'accept-encoding': 'gzip, deflate, br' },
    });
  } catch (error) {
    throw new SitemapRefused(`${current.href}: ${networkReason(error, fetch.signal)}`);
  }
}

async function parseResponse(url: URL, response: Dispatcher.ResponseData, fetch: SitemapFileFetch): Promise<ParsedSitemap> {
  const contentType = String(response.headers['content-type'] ?? '').toLowerCase();
  if (response.statusCode !== 200 || contentType.startsWith('text/html')) {
    await response.body.dump().catch(() => undefined);
    throw new SitemapRefused(response.statusCode !== 200 ? `${url.href} answered HTTP ${response.statusCode}` : `${url.href} is an HTML page (Content-Type ${contentType}), not a sitemap`);
  }
  const parser = new SitemapParser(fetch.limits);
  try {
    const encoding = response.headers['content-encoding'];
    await readXmlBody(response.body, Array.isArray(encoding) ? encoding.join(',') : encoding, fetch.limits, (text) => parser.write(text));
    return parser.end();
  } catch (error) {
    // Stop the download: whatever is left of a refused file is not wanted.
    response.body.destroy();
    if (error instanceof SitemapRefused) throw new SitemapRefused(`${url.href}: ${error.message}`);
    throw new SitemapRefused(`${url.href}: ${networkReason(error, fetch.signal)}`);
  }
}

/**
 * Why a fetch failed, for the API's caller: the refusal without the address a
 * name resolved to (the answer would otherwise tell a customer what the
 * service's resolver says about any name they point theirs at, an internal
 * one included), and a connection error by its code alone, never its text
 * (which names addresses).
 */
function networkReason(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return 'timed out';
  const cause = (error as { cause?: unknown }).cause;
  if (error instanceof EgressRefused || cause instanceof EgressRefused) {
    return `refused: ${(error instanceof EgressRefused ? error : (cause as EgressRefused)).message.replace(/ resolves to an internal address \(.*\)$/s, ' resolves to an internal address')}`;
  }
  const code = (error as { code?: unknown }).code ?? (cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code) ? `could not be fetched (${code})` : 'could not be fetched (connection error)';
}

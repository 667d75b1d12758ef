import type { Dispatcher } from 'undici';
import { normalizeHttpUrl } from '@bpc/domain';
import type { EgressRules } from '@bpc/egress';
import { fetchOnSite, isOnSite, networkReason, type SitemapSite } from './fetch-on-site';
import { SitemapParser, type ParsedSitemap } from './parse-sitemap';
import { readXmlBody } from './read-xml-body';
import { SitemapRefused, type SitemapLimits } from './sitemap-limits';

export interface SitemapFileFetch {
  readonly site: SitemapSite;
  readonly rules: EgressRules;
  readonly dispatcher: Dispatcher;
  readonly limits: SitemapLimits;
  readonly signal: AbortSignal;
  readonly userAgent: string;
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
 * Fetches and parses one sitemap file, where the renderer would fetch the
 * page and staying on the website (`fetchOnSite`). Anything but a 200 with a
 * sitemap body is refused.
 */
export async function fetchSitemapFile(publicUrl: URL, fetch: SitemapFileFetch): Promise<ParsedSitemap> {
  const accept = 'application/xml, text/xml;q=0.9, */*;q=0.1';
  const { url, response } = await fetchOnSite(publicUrl, { ...fetch, maxRedirects: fetch.limits.maxRedirects, accept }, (reason) => new SitemapRefused(reason));
  return parseResponse(url, response, fetch);
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

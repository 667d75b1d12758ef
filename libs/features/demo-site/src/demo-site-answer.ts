import { DEMO_REDIRECTS, demoCatalogue, notFoundPage } from './demo-catalogue';
import type { DemoPage } from './demo-page';
import { PAGE_SCRIPT } from './page-script';
import { PAGE_CONTENT_PATH, PAGE_SCRIPT_PATH, pageShell } from './page-shell';
import { robotsTxt, sitemap, SITEMAP_INDEX_PATH, SITEMAP_PATHS, sitemapIndex, sitemapOf } from './sitemaps';

/** How long the slow page's HTML takes to arrive: slow enough to see, well inside any render timeout. */
export const SLOW_PAGE_DELAY_MS = 2500;

/** The demo site's pages, for the public base URL bots know it by. */
export interface DemoSite {
  readonly baseUrl: string;
  readonly pages: ReadonlyMap<string, DemoPage>;
}

/** One answer of the demo site. */
export interface DemoAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Answered this long after the request. */
  readonly delayMs?: number;
}

export function demoSite(baseUrl: string): DemoSite {
  return { baseUrl, pages: new Map(demoCatalogue(baseUrl).map((page) => [page.path, page])) };
}

/** What the demo site answers to a GET of `target` (path and query, as in the request line). */
export function demoSiteAnswer(site: DemoSite, target: string): DemoAnswer {
  const url = new URL(target, 'http://demo.invalid');
  const fixed = fixedAnswer(site, url);
  if (fixed) return fixed;
  const redirect = DEMO_REDIRECTS.get(url.pathname);
  if (redirect) return { status: 301, headers: { location: redirect }, body: '' };
  const page = pageAt(site, url.pathname);
  return { status: 200, headers: typed('text/html; charset=utf-8'), body: pageShell(page), delayMs: page.behaviour === 'slow' ? SLOW_PAGE_DELAY_MS : undefined };
}

function fixedAnswer(site: DemoSite, url: URL): DemoAnswer | undefined {
  const pages = [...site.pages.values()];
  switch (url.pathname) {
    case '/robots.txt':
      return ok('text/plain; charset=utf-8', robotsTxt(site.baseUrl));
    case SITEMAP_INDEX_PATH:
      return ok('application/xml', sitemapIndex(site.baseUrl));
    case SITEMAP_PATHS.products:
      return ok('application/xml', sitemap(site.baseUrl, pages.filter((p) => sitemapOf(p) === 'products')));
    case SITEMAP_PATHS.pages:
      return ok('application/xml', sitemap(site.baseUrl, pages.filter((p) => sitemapOf(p) === 'pages')));
    case PAGE_SCRIPT_PATH:
      return ok('text/javascript; charset=utf-8', PAGE_SCRIPT);
    case PAGE_CONTENT_PATH:
      return ok('application/json', JSON.stringify(pageAt(site, url.searchParams.get('path') ?? '/')));
    default:
      return url.pathname.startsWith('/images/') && url.pathname.endsWith('.svg') ? ok('image/svg+xml', placeholderImage(url.pathname)) : undefined;
  }
}

/** The page at `path`; any other path is the app's "not found" view, answered 200 (a soft 404). */
function pageAt(site: DemoSite, path: string): DemoPage {
  return site.pages.get(path) ?? notFoundPage(path, site.baseUrl);
}

/** A small picture with its colour drawn from its name, so each image differs. */
function placeholderImage(path: string): string {
  const hue = [...path].reduce((sum, c) => sum + c.charCodeAt(0), 0) % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200"><rect width="320" height="200" fill="hsl(${hue} 45% 55%)"/></svg>`;
}

function ok(contentType: string, body: string): DemoAnswer {
  return { status: 200, headers: typed(contentType), body };
}

function typed(contentType: string): Record<string, string> {
  return { 'content-type': contentType };
}

import type { DemoPage } from './demo-page';

/** The sitemap index robots.txt names, and the sitemaps it lists (relative to the site). */
export const SITEMAP_INDEX_PATH = '/sitemap_index.xml';
export const SITEMAP_PATHS = { products: '/sitemaps/products.xml', pages: '/sitemaps/pages.xml' } as const;

/** robots.txt: every bot may read everything but the admin area; the sitemap index is on the public host. */
export function robotsTxt(baseUrl: string): string {
  return `User-agent: *\nDisallow: /admin/\n\nSitemap: ${baseUrl}${SITEMAP_INDEX_PATH}\n`;
}

export function sitemapIndex(baseUrl: string): string {
  const entries = Object.values(SITEMAP_PATHS).map((path) => `  <sitemap><loc>${xmlText(`${baseUrl}${path}`)}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</sitemapindex>\n`;
}

/** A sitemap (urlset) of the pages' public URLs. */
export function sitemap(baseUrl: string, pages: readonly DemoPage[]): string {
  const entries = pages.map((page) => `  <url><loc>${xmlText(`${baseUrl}${page.path}`)}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>\n`;
}

/** Which sitemap lists a page: product pages (a retired one too, as real shops keep them) in one, the rest in the other. */
export function sitemapOf(page: DemoPage): keyof typeof SITEMAP_PATHS {
  return page.path.startsWith('/products/') ? 'products' : 'pages';
}

function xmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

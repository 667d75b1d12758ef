import type { DemoPage } from './demo-page';

/** The sitemap index robots.txt names, and the sitemaps it lists (relative to the site). */
export const SITEMAP_INDEX_PATH = '/sitemap_index.xml';
export const SITEMAP_PATHS = { products: '/sitemaps/products.xml', pages: '/sitemaps/pages.xml' } as const;

/**
 * robots.txt: every bot may read everything but the admin area; AI training
 * crawlers not the documentation either, and Bytespider and AhrefsBot
 * nothing (the story the demo traffic tells: `cli demo-data`); the sitemap
 * index is on the public host. A named group does not inherit `*`'s rules,
 * so it repeats the admin area.
 */
export function robotsTxt(baseUrl: string): string {
  return [
    'User-agent: *',
    'Disallow: /admin/',
    '',
    'User-agent: GPTBot',
    'User-agent: ClaudeBot',
    'User-agent: CCBot',
    'Disallow: /admin/',
    'Disallow: /docs/',
    '',
    'User-agent: Bytespider',
    'User-agent: AhrefsBot',
    'Disallow: /',
    '',
    `Sitemap: ${baseUrl}${SITEMAP_INDEX_PATH}`,
    '',
  ].join('\n');
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

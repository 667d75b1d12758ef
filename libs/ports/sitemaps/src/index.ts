export * from './sitemap-limits';
export * from './parse-sitemap';
export * from './tally-urls';
export { readXmlBody } from './read-xml-body';
export { isOnSite, sitemapUrlOf, type SitemapSite } from './fetch-sitemap-file';
export * from './read-sitemaps';

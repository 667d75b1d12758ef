export * from './sitemap-limits';
export * from './parse-sitemap';
export * from './tally-urls';
export { readXmlBody } from './read-xml-body';
export { sitemapUrlOf } from './fetch-sitemap-file';
export { fetchOnSite, isOnSite, networkReason, type OnSiteFetch, type SitemapSite } from './fetch-on-site';
export * from './read-sitemaps';

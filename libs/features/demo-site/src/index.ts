export * from './demo-page';
export * from './demo-catalogue';
export * from './demo-site-answer';
export * from './demo-site-server';
export * from './seo-traits';
export * from './sitemaps';
export { PAGE_SCRIPT_PATH, PAGE_CONTENT_PATH } from './page-shell';
export { PRERENDER_READY_PAUSE_MS } from './page-script';
export * from './configured-demo-site';

export * from './page-refresher.port';
export { CachingPageRefresher } from './page-refresher';
export type { CachingPageRefresherOptions } from './page-refresher';
export { ChromiumTabPool, CHROMIUM_ARGS, HEADLESS_SERVER_ARGS } from './chromium-tab-pool';
export type { ChromiumTabPoolOptions, TabPool } from './chromium-tab-pool';
export { TabSlots, reservedTabs } from './tab-slots';
export type { TabPurpose } from './tab-slots';
export { renderPage } from './render-page';
export type { PageRender } from './render-page';
export { fetchOrigin } from './fetch-origin';
export type { OriginFetch } from './fetch-origin';
export { PageFailure } from './fetched-page';
export type { FetchedPage } from './fetched-page';
export {
  DESKTOP_BOT_USER_AGENT,
  MOBILE_BOT_USER_AGENT,
  emulationFor,
  expiresAt,
  resolveMode,
  storedHeaders,
  unstorableStatus,
} from './refresh-rules';
export type { Emulation } from './refresh-rules';
export { customerFailureReason, renderFactOf } from './render-facts';
export type { AfterFailure, RenderFact } from './render-facts';
export { DEFAULT_LAST_GOOD_RULES, judgeAgainstLastGood, lastGoodRulesOf } from './last-good/last-good-rules';
export type { LastGoodReason, LastGoodRules, LastGoodVerdict } from './last-good/last-good-rules';
export { MAX_MARKDOWN_CHARS, renderMarkdown } from './markdown/render-markdown';
export type { MarkdownSource, PageMarkdown } from './markdown/render-markdown';

import type { DemoPage } from './demo-page';

/** Where the page script is served. */
export const PAGE_SCRIPT_PATH = '/assets/app.js';
/** Where the script fetches a page's content: `?path=<the page's path>`. */
export const PAGE_CONTENT_PATH = '/content.json';

/**
 * The HTML every page is served as: an empty shell that only the script
 * fills, so a bot that runs no JavaScript sees nothing but "Loading…". A
 * `prerender-ready` page says it is not ready before anything loads.
 */
export function pageShell(page: Pick<DemoPage, 'behaviour'>): string {
  const notReady = page.behaviour === 'prerender-ready' ? '\n<script>window.prerenderReady = false;</script>' : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">${notReady}
<script src="${PAGE_SCRIPT_PATH}" defer></script>
</head>
<body><div id="app">Loading…</div></body>
</html>
`;
}

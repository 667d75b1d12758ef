import type { PageFacts } from '@bpc/domain';
import type { FetchedPage } from '../fetched-page';
import { extractPageFacts } from './extract-page-facts';

/**
 * Most of a page read for its facts: the parse runs on the thread that
 * serves (the edge's, on a miss), and a page can be 16 MB. Everything bots
 * weigh (head, headings, the start of the text) comes early; a longer page's
 * counts cover this much of it, its `bytes` the whole.
 */
export const MAX_FACTS_HTML_BYTES = 2 * 1024 * 1024;

/** The facts of a page a render or fetch produced, at its public URL. */
export function pageFactsOf(url: string, page: FetchedPage, soft404: boolean): PageFacts {
  const html = page.body.subarray(0, MAX_FACTS_HTML_BYTES).toString('utf8');
  return { ...extractPageFacts({ url, html, statusCode: page.statusCode, headers: page.headers, soft404 }), bytes: page.body.length };
}

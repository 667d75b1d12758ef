import { canonicalNamesPage, collapseWhitespace } from './page-facts';

/** A cached page as `llms.txt` lists it. */
export interface LlmsTxtPage {
  readonly url: string;
  readonly title: string | null;
  readonly description: string | null;
  /** From the page's facts: pages bots are told not to index are left out. */
  readonly noindex: boolean;
  /** From the page's facts, when known: a page whose canonical names another URL is left out (the other one is listed). */
  readonly canonical: string | null;
}

export interface LlmsTxtSite {
  /** The site's name, the file's only H1 (llmstxt.org). */
  readonly name: string;
  /** One paragraph, the file's blockquote; empty: no blockquote. */
  readonly summary: string;
}

/** Largest `llms.txt` we serve: agents read it whole, so it stays small (llmstxt.org suggests a concise index). */
export const MAX_LLMS_TXT_BYTES = 256 * 1024;

/** The section of a page: its first path segment (`/docs/a` → `docs`); the root and one-segment pages go to `Pages`. */
export function sectionOf(url: string): string {
  const segments = new URL(url).pathname.split('/').filter(Boolean);
  return segments.length > 1 ? decodeSegment(segments[0]!) : 'Pages';
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Markdown link text and descriptions on one line, with nothing that would end the link early. */
const linkText = (text: string): string => collapseWhitespace(text).replace(/[[\]]/g, (bracket) => `\\${bracket}`);

const indexable = (page: LlmsTxtPage): boolean => !page.noindex && (page.canonical === null || canonicalNamesPage(page.canonical, page.url));

/**
 * An `llms.txt` (llmstxt.org) from what the cache holds: the site's name and
 * summary, then its indexable pages grouped by first path segment (sections
 * in alphabetical order, `Pages` first; pages by URL), each as
 * `- [title](url): description`. Cut at `MAX_LLMS_TXT_BYTES` on a whole line,
 * saying how many pages were left out.
 */
export function llmsTxt(site: LlmsTxtSite, pages: readonly LlmsTxtPage[]): { readonly text: string; readonly listed: number; readonly leftOut: number } {
  const sections = new Map<string, LlmsTxtPage[]>();
  for (const page of pages.filter(indexable)) {
    const section = sectionOf(page.url);
    const list = sections.get(section);
    if (list) list.push(page);
    else sections.set(section, [page]);
  }
  const names = [...sections.keys()].sort((a, b) => (a === 'Pages' ? -1 : b === 'Pages' ? 1 : a.localeCompare(b)));
  const summary = collapseWhitespace(site.summary);
  const head = `# ${collapseWhitespace(site.name)}\n${summary ? `\n> ${summary}\n` : ''}`;
  const lines: string[] = [head];
  let bytes = Buffer.byteLength(head);
  let listed = 0;
  const total = [...sections.values()].reduce((sum, list) => sum + list.length, 0);
  const budget = MAX_LLMS_TXT_BYTES - 200;
  outer: for (const name of names) {
    const heading = `\n## ${linkText(name)}\n\n`;
    const entries = sections.get(name)!.sort((a, b) => a.url.localeCompare(b.url));
    if (bytes + Buffer.byteLength(heading) > budget) break;
    lines.push(heading);
    bytes += Buffer.byteLength(heading);
    for (const page of entries) {
      const description = page.description ? `: ${collapseWhitespace(page.description)}` : '';
      const line = `- [${linkText(page.title || page.url)}](${linkTarget(page.url)})${description}\n`;
      if (bytes + Buffer.byteLength(line) > budget) break outer;
      lines.push(line);
      bytes += Buffer.byteLength(line);
      listed += 1;
    }
  }
  const leftOut = total - listed;
  if (leftOut > 0) lines.push(`\n${leftOut} more ${leftOut === 1 ? 'page is' : 'pages are'} cached but not listed: this file is kept under ${MAX_LLMS_TXT_BYTES / 1024} KB.\n`);
  return { text: lines.join(''), listed, leftOut };
}

/** A URL with its parentheses and whitespace percent-encoded, so Markdown cannot end the link inside it. */
const linkTarget = (url: string): string => url.replace(/[()\s]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

import { Readability } from '@mozilla/readability';
import { collapseWhitespace as collapse } from '@bpc/domain';
import { countTokens } from 'gpt-tokenizer';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';

/** What an agent's Markdown is made from: a stored render and what we know of it. */
export interface MarkdownSource {
  /** The page's URL: links and images resolve against it. */
  readonly url: string;
  /** The rendered DOM (after scripts ran), as stored. */
  readonly html: string;
  /** When the page was rendered (ISO 8601 UTC), said in the front matter. */
  readonly renderedAt: string;
  /** The page's canonical URL when known (page facts), else the page's own. */
  readonly canonical?: string | null;
}

export interface PageMarkdown {
  readonly markdown: string;
  /** Tokens of `markdown` as OpenAI's o200k_base tokenizer counts them (gpt-tokenizer), for `X-Markdown-Tokens`. */
  readonly tokens: number;
  /** The Markdown was cut at `MAX_MARKDOWN_CHARS` and says so at its end. */
  readonly truncated: boolean;
}

/** Longest Markdown kept for one page (about 250k tokens): an agent's context is the limit, not our memory. */
export const MAX_MARKDOWN_CHARS = 1_000_000;
/** Most elements a page may have for Readability to look for its main content (its cost grows with size); a larger page's body is converted whole. */
const MAX_ELEMENTS_FOR_READABILITY = 20_000;
/** Nesting deeper than this is flattened to text before conversion (turndown recurses per level; real pages stay well under it). */
const MAX_DEPTH = 64;

/** linkedom's DOM (the service compiles without the browser's DOM types). */
type PageDocument = ReturnType<typeof parseHTML>['document'];
type PageElement = NonNullable<PageDocument['body']>;

/** Turndown keeps no state between calls: one instance serves every conversion. */
const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' });
turndown.use(gfm);
// `as never`: turndown types tag names through the browser's DOM types, which the service does not compile with.
turndown.remove(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'svg', 'canvas', 'form', 'button', 'select', 'input', 'textarea', 'nav', 'footer', 'header', 'aside'] as never);

/**
 * The Markdown an agent gets for a rendered page: a short front matter, the
 * title as the first heading, then the page's main content (Mozilla's
 * Readability, as Firefox's reader view finds it; the whole body when it
 * finds none) converted by turndown with GitHub tables, links and images
 * made absolute. linkedom gives Readability a DOM several times faster than
 * jsdom would.
 */
export function renderMarkdown(source: MarkdownSource): PageMarkdown {
  const { document } = parseHTML(asDocument(source.html));
  absolutize(document, source.url);
  const root = document.body ?? document.documentElement;
  const shape = flattenDeepNesting(root);
  const head = headOf(document);
  // Readability's cost grows steeply with nesting and size: an odd page is converted whole rather than cost seconds.
  const article = shape.flattened || shape.elements > MAX_ELEMENTS_FOR_READABILITY ? null : new Readability(document.cloneNode(true) as never).parse();
  // Turndown parses the HTML again with its own DOM (domino): linkedom lacks what its table rules read (`rows`).
  const content = article?.content || root?.innerHTML || '';
  const title = (head.title || article?.title || '').trim();
  const body = turndown.turndown(content).trim();
  const front = frontMatter({ title, url: source.canonical ?? source.url, description: head.description, lang: head.lang, renderedAt: source.renderedAt });
  let markdown = `${front}${title ? `# ${escapeHeading(title)}\n\n` : ''}${body}\n`;
  const truncated = markdown.length > MAX_MARKDOWN_CHARS;
  if (truncated) markdown = `${markdown.slice(0, MAX_MARKDOWN_CHARS)}\n\n[Truncated: the page is longer than ${MAX_MARKDOWN_CHARS} characters of Markdown.]\n`;
  return { markdown, tokens: countTokens(markdown), truncated };
}

/** linkedom builds the tree a browser would only from a whole document: a fragment (an origin's bare body) is wrapped in one. */
const asDocument = (html: string): string => (/<html[\s>]/i.test(html) ? html : `<!doctype html><html><head></head><body>${html}</body></html>`);

interface HeadFacts {
  readonly title: string;
  readonly description: string;
  readonly lang: string;
}

function headOf(document: PageDocument): HeadFacts {
  const description = document.querySelector('meta[name="description" i]')?.getAttribute('content') ?? '';
  return { title: collapse(document.querySelector('title')?.textContent ?? ''), description: collapse(description), lang: document.documentElement?.getAttribute('lang') ?? '' };
}

const escapeHeading = (text: string): string => text.replace(/^#+\s*/, '');

/** YAML front matter, every value a JSON string (valid YAML, whatever the page put in its title). */
function frontMatter(fields: Readonly<Record<string, string>>): string {
  const lines = Object.entries(fields)
    .filter(([, value]) => value !== '')
    .map(([key, value]) => `${key === 'renderedAt' ? 'rendered_at' : key}: ${JSON.stringify(value)}`);
  return `---\n${lines.join('\n')}\n---\n\n`;
}

/** Links and images point where the page meant them to (its `<base>` included), so an agent can follow them; other schemes (`javascript:`) lose their target. */
function absolutize(document: PageDocument, pageUrl: string): void {
  const baseHref = document.querySelector('base[href]')?.getAttribute('href');
  const base = resolve(baseHref ?? '', pageUrl) ?? pageUrl;
  for (const [selector, attribute] of [['a[href]', 'href'], ['img[src]', 'src']] as const) {
    for (const element of document.querySelectorAll(selector)) {
      const absolute = resolve(element.getAttribute(attribute) ?? '', base);
      if (absolute) element.setAttribute(attribute, absolute);
      else element.removeAttribute(attribute);
    }
  }
}

function resolve(href: string, base: string): string | undefined {
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Replaces elements nested deeper than `MAX_DEPTH` by their text (kept in
 * order), so nothing after recurses without bound; counts the elements.
 */
function flattenDeepNesting(root: PageElement | null): { readonly elements: number; readonly flattened: boolean } {
  if (!root) return { elements: 0, flattened: false };
  let elements = 0;
  let flattened = false;
  const stack: [PageElement, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [element, depth] = stack.pop()!;
    for (const child of [...element.children]) {
      elements += 1;
      if (depth + 1 < MAX_DEPTH) stack.push([child, depth + 1]);
      else {
        child.replaceWith(element.ownerDocument.createTextNode(child.textContent ?? ''));
        flattened = true;
      }
    }
  }
  return { elements, flattened };
}

import { Parser } from 'htmlparser2';
import { collapseWhitespace as collapse, MAX_CANONICAL_LENGTH, MAX_FACT_TEXT, MAX_JSON_LD_BYTES, MAX_LISTED, PageFacts } from '@bpc/domain';
import { RobotsDirectives, scopesIn } from './robots-directives';

/** What a render produced, as the facts are read from it. */
export interface RenderedDocument {
  /** The page's URL: relative links and canonicals resolve against it (or the document's `<base>`). */
  readonly url: string;
  /** The serialized DOM after scripts ran (a render) or the origin's body (a bypass fetch). */
  readonly html: string;
  readonly statusCode: number;
  /** Response headers, names in lower case (`link`, `x-robots-tag`), a repeated header as an array. */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly soft404: boolean;
}

/** Elements whose text is not visible: left out of the word count and of headings. */
const INVISIBLE = new Set(['script', 'style', 'template', 'noscript', 'head', 'svg', 'math', 'iframe', 'object']);
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’_-]*/gu;
/** An absolute or protocol-relative http(s) URL, capturing its authority. */
const ABSOLUTE_HTTP = /^(?:https?:)?\/\/([^/?#\\]*)/i;
/** Any other scheme (`mailto:`, `javascript:`, `tel:`): not a link to a page. */
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

const cut = (text: string): string => (text.length > MAX_FACT_TEXT ? text.slice(0, MAX_FACT_TEXT) : text);
const headerValues = (value: string | readonly string[] | undefined): readonly string[] => (value === undefined ? [] : typeof value === 'string' ? [value] : value);

/** An absolute http(s) URL from `href` resolved against `base`, or undefined (`javascript:`, `data:`, unparsable). */
function httpUrl(href: string, base: string): URL | undefined {
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The targets of `rel=canonical` in `Link` header values (`<url>; rel="canonical"`, several per value). */
export function canonicalLinks(values: readonly string[]): string[] {
  const found: string[] = [];
  for (const value of values) {
    for (const [, target, params] of value.matchAll(/<([^>]*)>([^,]*)/g)) {
      if (/;\s*rel\s*=\s*"?(?:[^";]*\s)?canonical(?:\s[^";]*)?"?\s*(?:;|$)/i.test(params!)) found.push(target!);
    }
  }
  return found;
}

/** The `@type`s of a parsed JSON-LD block: its top-level nodes and those of an `@graph`. */
function jsonLdTypes(block: unknown, into: Set<string>): void {
  const nodes = Array.isArray(block) ? block : [block];
  for (const node of nodes) {
    if (node === null || typeof node !== 'object') continue;
    const type = (node as Record<string, unknown>)['@type'];
    for (const name of Array.isArray(type) ? type : [type]) if (typeof name === 'string' && name) into.add(name);
    const graph = (node as Record<string, unknown>)['@graph'];
    if (graph !== undefined) jsonLdTypes(graph, into);
  }
}

const listed = (values: Iterable<string>): string[] => [...values].sort().slice(0, MAX_LISTED);

/**
 * Reads a rendered page's facts in one streaming pass (htmlparser2's
 * callbacks build no DOM: the cheapest way to read a large document in
 * Node). Bounded against hostile pages: texts are cut, lists capped, a
 * JSON-LD block beyond `MAX_JSON_LD_BYTES` is counted invalid unparsed.
 */
export function extractPageFacts(page: RenderedDocument): PageFacts {
  const pageUrl = new URL(page.url);
  let base = page.url;
  let baseHost = pageUrl.host;
  const robots = new RobotsDirectives();
  for (const value of headerValues(page.headers['x-robots-tag'])) robots.addHeader(value);

  let title: string | undefined;
  let titleText: string | undefined;
  let description: string | undefined;
  let lang: string | undefined;
  let h1Count = 0;
  let firstH1: string | undefined;
  let h1Text: string | undefined;
  let h1Depth = 0;
  const documentCanonicals: string[] = [];
  let hreflangCount = 0;
  let hreflangOffSite = 0;
  let ogTitle = false;
  let ogImage = false;
  const ldTypes = new Set<string>();
  let ldBlocks = 0;
  let ldInvalid = 0;
  let ldText: string | undefined;
  let ldOversize = false;
  const microdataTypes = new Set<string>();
  let words = 0;
  let internalLinks = 0;
  let externalLinks = 0;
  let imagesWithoutAlt = 0;
  /** Open invisible elements (a count: they nest). */
  let hidden = 0;
  let svgDepth = 0;

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (INVISIBLE.has(name)) hidden += 1;
        if (name === 'svg') svgDepth += 1;
        if (attributes.itemtype !== undefined && attributes.itemscope !== undefined) for (const type of attributes.itemtype.split(/\s+/)) if (type) microdataTypes.add(type);
        switch (name) {
          case 'html':
            if (attributes.lang !== undefined && lang === undefined) lang = collapse(attributes.lang) || undefined;
            break;
          case 'base':
            if (attributes.href !== undefined && base === page.url) {
              const declared = httpUrl(attributes.href, page.url);
              if (declared) ({ href: base, host: baseHost } = declared);
            }
            break;
          case 'title':
            if (title === undefined && svgDepth === 0) titleText = '';
            break;
          case 'meta':
            meta(attributes);
            break;
          case 'link':
            link(attributes);
            break;
          case 'h1':
            h1Count += 1;
            h1Depth += 1;
            if (h1Count === 1) h1Text = '';
            break;
          case 'a':
            anchor(attributes.href);
            break;
          case 'img':
            if (attributes.alt === undefined) imagesWithoutAlt += 1;
            break;
          case 'script':
            if (attributes.type?.trim().toLowerCase() === 'application/ld+json') {
              ldBlocks += 1;
              ldText = '';
              ldOversize = false;
            }
            break;
        }
      },
      ontext(text) {
        if (titleText !== undefined) titleText += text;
        if (ldText !== undefined && !ldOversize) {
          if (ldText.length + text.length > MAX_JSON_LD_BYTES) ldOversize = true;
          else ldText += text;
        }
        if (hidden > 0) return;
        if (h1Text !== undefined && h1Depth > 0) h1Text += text;
        words += text.match(WORD)?.length ?? 0;
      },
      onclosetag(name) {
        if (INVISIBLE.has(name)) hidden = Math.max(0, hidden - 1);
        if (name === 'svg') svgDepth = Math.max(0, svgDepth - 1);
        if (name === 'title' && titleText !== undefined) {
          title = titleText;
          titleText = undefined;
        }
        if (name === 'h1') {
          h1Depth = Math.max(0, h1Depth - 1);
          if (h1Depth === 0 && h1Text !== undefined) {
            firstH1 = h1Text;
            h1Text = undefined;
          }
        }
        if (name === 'script' && ldText !== undefined) {
          closeJsonLd(ldText, ldOversize);
          ldText = undefined;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );

  function meta(attributes: Record<string, string>): void {
    const name = attributes.name?.trim().toLowerCase();
    const content = attributes.content;
    if (content === undefined) return;
    if (name === 'description' && description === undefined && collapse(content)) description = content;
    else if (name !== undefined) robots.addMeta(name, content);
    const property = attributes.property?.trim().toLowerCase();
    if (property === 'og:title' && content.trim()) ogTitle = true;
    if (property === 'og:image' && content.trim()) ogImage = true;
  }

  function link(attributes: Record<string, string>): void {
    const rels = (attributes.rel ?? '').toLowerCase().split(/\s+/);
    if (rels.includes('canonical') && attributes.href !== undefined) documentCanonicals.push(attributes.href);
    if (rels.includes('alternate') && attributes.hreflang !== undefined && attributes.href !== undefined) {
      hreflangCount += 1;
      const target = httpUrl(attributes.href, base);
      if (target && target.host !== pageUrl.host) hreflangOffSite += 1;
    }
  }

  function anchor(href: string | undefined): void {
    if (href === undefined) return;
    const trimmed = href.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    // Classified without parsing a URL where the text tells (a page may carry tens of thousands of links).
    const absolute = ABSOLUTE_HTTP.exec(trimmed);
    if (absolute) {
      const host = absolute[1]!.slice(absolute[1]!.lastIndexOf('@') + 1).toLowerCase();
      if (host === pageUrl.host) internalLinks += 1;
      else externalLinks += 1;
      return;
    }
    if (SCHEME.test(trimmed)) return;
    // A path or query: on the site the base names.
    if (baseHost === pageUrl.host) internalLinks += 1;
    else externalLinks += 1;
  }

  function closeJsonLd(text: string, oversize: boolean): void {
    if (oversize) {
      ldInvalid += 1;
      return;
    }
    try {
      jsonLdTypes(JSON.parse(text), ldTypes);
    } catch {
      ldInvalid += 1;
    }
  }

  parser.end(page.html);

  const canonicals = [...documentCanonicals, ...canonicalLinks(headerValues(page.headers.link))]
    .map((href) => httpUrl(href, base)?.href)
    .filter((href): href is string => href !== undefined && href.length <= MAX_CANONICAL_LENGTH);
  const distinctCanonicals = [...new Set(canonicals)].slice(0, MAX_LISTED);
  const fullTitle = title === undefined ? '' : collapse(title);
  const h1 = firstH1 === undefined ? '' : collapse(firstH1);
  return {
    statusCode: page.statusCode,
    bytes: Buffer.byteLength(page.html),
    soft404: page.soft404,
    title: fullTitle ? cut(fullTitle) : null,
    titleLength: fullTitle.length,
    description: description === undefined ? null : cut(collapse(description)),
    lang: lang ?? null,
    h1Count,
    firstH1: h1 ? cut(h1) : null,
    canonical: distinctCanonicals[0] ?? null,
    canonicals: distinctCanonicals,
    noindexBy: scopesIn(robots.noindex),
    nofollowBy: scopesIn(robots.nofollow),
    hreflangCount,
    hreflangOffSite,
    ogTitle,
    ogImage,
    jsonLdTypes: listed(ldTypes),
    jsonLdBlocks: ldBlocks,
    jsonLdInvalid: ldInvalid,
    microdataTypes: listed(microdataTypes),
    wordCount: words,
    internalLinks,
    externalLinks,
    imagesWithoutAlt,
  };
}

import { MAX_CANONICAL_LENGTH, MAX_FACT_TEXT, MAX_LISTED, ROBOTS_SCOPES } from '@bpc/domain';
import { pageUrlSchema } from '../page-url-schema';

const count = { type: 'integer', minimum: 0 } as const;
const text = { type: ['string', 'null'], description: `whitespace collapsed, at most ${MAX_FACT_TEXT} characters; null when the page has none` } as const;
const scopes = { type: 'array', items: { enum: ROBOTS_SCOPES }, description: '`robots`: every bot; else the named crawler' } as const;
const names = { type: 'array', items: { type: 'string' }, description: `distinct, sorted, at most ${MAX_LISTED}` } as const;

/** What a rendered page says to bots (`PageFacts` in the domain), as `RenderRecorded.facts` carries it. */
export const pageFactsSchema = {
  type: 'object',
  description: 'What the produced page says to bots, read from the rendered document and its response headers (docs/seo-health.md)',
  required: [
    'statusCode', 'bytes', 'soft404', 'title', 'titleLength', 'description', 'lang', 'h1Count', 'firstH1', 'canonical', 'canonicals', 'noindexBy', 'nofollowBy',
    'hreflangCount', 'hreflangOffSite', 'ogTitle', 'ogImage', 'jsonLdTypes', 'jsonLdBlocks', 'jsonLdInvalid', 'microdataTypes', 'wordCount', 'internalLinks', 'externalLinks', 'imagesWithoutAlt',
  ],
  additionalProperties: false,
  properties: {
    statusCode: { type: 'integer', minimum: 0, maximum: 999 },
    bytes: count,
    soft404: { type: 'boolean' },
    title: text,
    titleLength: { ...count, description: 'the title\'s length before it was cut' },
    description: text,
    lang: { type: ['string', 'null'] },
    h1Count: count,
    firstH1: text,
    canonical: { type: ['string', 'null'], pattern: '^https?://', maxLength: MAX_CANONICAL_LENGTH, description: 'absolute; from <link rel=canonical> first, else the Link header' },
    canonicals: { type: 'array', items: { ...pageUrlSchema, maxLength: MAX_CANONICAL_LENGTH }, description: `every distinct canonical declared (longer ones ignored), at most ${MAX_LISTED}` },
    noindexBy: scopes,
    nofollowBy: scopes,
    hreflangCount: count,
    hreflangOffSite: count,
    ogTitle: { type: 'boolean' },
    ogImage: { type: 'boolean' },
    jsonLdTypes: names,
    jsonLdBlocks: count,
    jsonLdInvalid: count,
    microdataTypes: names,
    wordCount: count,
    internalLinks: count,
    externalLinks: count,
    imagesWithoutAlt: count,
  },
} as const;

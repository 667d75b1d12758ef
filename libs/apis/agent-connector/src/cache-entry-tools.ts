import type { PublicApiClient } from './api-client';
import { componentSchema, JsonSchema } from './openapi-schemas';
import { bodyOf, ToolArguments } from './tool-arguments';
import { ArgumentRefusal, refusalOf, toolRefusal, ToolResult, toolSuccess } from './tool-result';
import { WEBSITE_ARGUMENT } from './tool-schemas';
import { nextPageOf } from './tool-summaries';
import { ConnectorTool, DEFAULT_TOOL_ROWS, guarded, hintFor, object, ok, readOnly, websitePath } from './tool-kit';

/** Cache entries: look one URL up, list by prefix or pattern, drop what matches (after a dry run). */

const URL_ARGUMENT: JsonSchema = {
  type: 'string',
  description: "Look up this one page: an absolute URL on the website's hostnames. Give url, or prefix, or pattern.",
  examples: ['https://www.example.com/pricing'],
};

/** What the model can do about a refusal of a cache entry call. */
function cacheHint(code: string, extra: Record<string, unknown>): string | undefined {
  if (code === 'VALIDATION_FAILED') return `Fix the argument named by field (${String(extra.field ?? 'see message')}): exactly one of url, prefix or pattern; a prefix is an absolute URL on the website's hostnames; a pattern is RE2 syntax (no look-arounds or backreferences).`;
  if (code === 'NOT_FOUND') return "The URL is not on this website's hostnames (list_websites shows them).";
  return hintFor(code, extra);
}

async function cacheCall(api: PublicApiClient, request: Parameters<PublicApiClient>[0], onSuccess: (body: Record<string, unknown>) => ToolResult): Promise<ToolResult> {
  const answer = await api(request);
  if (ok(answer)) return onSuccess(object(answer.body));
  const refusal = refusalOf(answer);
  return toolRefusal(refusal, cacheHint(refusal.code, refusal));
}

interface DimensionView {
  readonly dimension: string;
  readonly cached: boolean;
  readonly status?: string;
  readonly statusCode?: number;
  readonly renderedAt?: string;
  readonly expiresAt?: string;
  readonly bytes?: number;
  readonly renderMs?: number;
  readonly hits: number;
  readonly lastServedAt: string | null;
}

function lookupSummary(body: Record<string, unknown>): string {
  const entries = (body.entries as DimensionView[] | undefined) ?? [];
  const parts = entries.map((e) =>
    e.cached
      ? `${e.dimension}: ${e.status} ${e.statusCode}, rendered ${e.renderedAt} (${e.renderMs} ms, ${e.bytes} bytes), expires ${e.expiresAt}, ${e.hits} hit(s) since, last served ${e.lastServedAt ?? 'never'}`
      : `${e.dimension}: not cached`,
  );
  return `${String(body.url)}: ${parts.join('; ')}.`;
}

function listSummary(body: Record<string, unknown>, args: ToolArguments): string {
  const meta = object(body.meta);
  const rows = (body.data as unknown[] | undefined) ?? [];
  const selected = typeof args.prefix === 'string' ? `prefix ${args.prefix}` : `pattern ${String(args.pattern)}`;
  if (Number(meta.total) === 0) return `No cache entries match ${selected}.`;
  const next = nextPageOf(meta);
  const more = next === null ? 'This is the last page.' : `More: call lookup_cache again with the same arguments and page=${next}.`;
  return `${rows.length} entr(ies) of ${String(meta.total)} matching ${selected} (page ${meta.page} of ${meta.totalPages}, by URL then dimension). ${more}`;
}

export const lookupCache: ConnectorTool = {
  name: 'lookup_cache',
  description:
    "What the cache holds for a website's pages (read-only, any role). With `url`: that page in every cache dimension: cached or not, fresh or stale, stored HTTP status, when rendered and when it expires (UTC), size in bytes, render time in ms, and bot requests served from the snapshot (hits) since it was rendered with the last one. " +
    `With \`prefix\` (an absolute URL the page URLs start with) or \`pattern\` (an RE2 regular expression searched in the URL): one page of matching entries (URL × dimension) with the same facts but hits, ${DEFAULT_TOOL_ROWS} per page unless perPage says (at most 500), and the total; page through with \`page\`.`,
  annotations: readOnly('Look up cache entries'),
  inputSchema: (document) => withLookupArguments(componentSchema(document, 'ListCacheEntriesDto')),
  run: guarded((api, args) => {
    if (args.url !== undefined) {
      const extra = ['prefix', 'pattern', 'page', 'perPage'].find((key) => args[key] !== undefined);
      if (extra) throw new ArgumentRefusal(extra, `${extra} lists entries; url looks up one page: give one or the other`);
      if (typeof args.url !== 'string') throw new ArgumentRefusal('url', 'url must be a string: an absolute URL');
      const unknown = Object.keys(args).find((key) => key !== 'url' && key !== 'website');
      if (unknown) throw new ArgumentRefusal(unknown, `unknown argument ${unknown}`);
      return cacheCall(api, { method: 'GET', path: `${websitePath(args)}/cache/entries?url=${encodeURIComponent(args.url)}` }, (body) => toolSuccess(lookupSummary(body), body));
    }
    const body = { perPage: DEFAULT_TOOL_ROWS, ...bodyOf(args, ['website']) };
    return cacheCall(api, { method: 'POST', path: `${websitePath(args)}/cache/entries/query`, body }, (answer) => toolSuccess(listSummary(answer, args), answer));
  }),
};

function withLookupArguments(list: JsonSchema): JsonSchema {
  const properties = { website: WEBSITE_ARGUMENT, url: URL_ARGUMENT, ...((list.properties as JsonSchema | undefined) ?? {}) };
  return { ...list, type: 'object', properties, required: ['website'] };
}

export const invalidateMatching: ConnectorTool = {
  name: 'invalidate_matching',
  description:
    "Drops the cached snapshots of every page whose URL starts with `prefix` (an absolute URL on the website's hostnames) or matches `pattern` (RE2, searched in the URL), in all dimensions (manager role): until they are rendered again, bots get a fresh render or the origin. " +
    'ALWAYS call it first with dryRun: true and tell the user how many entries and URLs it would drop (entriesMatched, urlsMatched); call it again without dryRun only once they agree. At most 10,000 entries per call: a larger selection is refused (narrow the prefix or pattern). Prefer recache_urls to refresh pages that should stay served.',
  annotations: { title: 'Invalidate matching cache entries', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  inputSchema: (document) => {
    const body = componentSchema(document, 'InvalidateMatchingEntriesDto');
    return { ...body, type: 'object', properties: { website: WEBSITE_ARGUMENT, ...((body.properties as JsonSchema | undefined) ?? {}) }, required: ['website'] };
  },
  outputSchema: (document) => componentSchema(document, 'MatchingEntriesInvalidatedDto'),
  run: guarded((api, args) =>
    cacheCall(api, { method: 'POST', path: `${websitePath(args)}/cache/entries/invalidate`, body: bodyOf(args, ['website']) }, (body) =>
      toolSuccess(
        body.dryRun
          ? `Dry run: ${body.entriesMatched} cache entr(ies) on ${body.urlsMatched} URL(s) would be dropped; nothing was changed. Confirm with the user, then call again without dryRun.`
          : `${body.entriesInvalidated} cache entr(ies) dropped (${body.entriesMatched} matched on ${body.urlsMatched} URL(s)).`,
        body,
      ),
    ),
  ),
};


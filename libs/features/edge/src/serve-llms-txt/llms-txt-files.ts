import { gzipSync } from 'node:zlib';
import type { CacheEntry, CacheStore } from '@bpc/cache-store';
import { isNoindex, llmsTxt, LlmsTxtPage, LlmsTxtSite } from '@bpc/domain';

/** A generated `llms.txt`, served as is until it is due again. */
export interface LlmsTxtFile {
  readonly text: Buffer;
  readonly gzipped: Buffer;
  /** Epoch ms (the service clock) it was generated at. */
  readonly generatedAt: number;
  readonly listed: number;
  readonly leftOut: number;
}

/** Cache entries read for one generation at most (URL × dimension): bounds its cost for a host with a huge cache. */
export const MAX_LLMS_TXT_ENTRIES_READ = 20_000;
/** Entries per listing call. */
const LIST_PAGE = 1_000;

/** The pages of a host's cache entries (sorted by URL, then dimension) that `llms.txt` may list: one per URL, the first with page facts. */
export function llmsTxtPagesOf(entries: readonly CacheEntry[]): LlmsTxtPage[] {
  const byUrl = new Map<string, CacheEntry>();
  for (const entry of entries) {
    if (!listable(entry)) continue;
    const known = byUrl.get(entry.url);
    if (!known || (!known.facts && entry.facts)) byUrl.set(entry.url, entry);
  }
  return [...byUrl.values()].map((entry) => ({
    url: entry.url,
    title: entry.facts?.title ?? null,
    description: entry.facts?.description ?? null,
    // Without facts (an entry stored before them), the stored X-Robots-Tag still tells.
    noindex: entry.facts ? isNoindex(entry.facts) : /noindex/i.test(entry.headers['x-robots-tag'] ?? ''),
    canonical: entry.facts?.canonical ?? null,
  }));
}

/** A page a reader can use: answered 2xx as HTML, not judged a soft 404, not `llms.txt` itself. */
function listable(entry: CacheEntry): boolean {
  if (entry.statusCode < 200 || entry.statusCode > 299 || entry.facts?.soft404) return false;
  const contentType = entry.headers['content-type'];
  if (contentType !== undefined && !/html/i.test(contentType)) return false;
  return !/^https?:\/\/[^/]+\/llms\.txt$/i.test(entry.url);
}

/**
 * Each website's `llms.txt`, generated from its host's cache entries (their
 * page facts: no body is read) and kept: a file older than `refreshMs` is
 * still served while the next one is generated in the background, so its
 * cost is at most one generation per website every `refreshMs`, whatever
 * the traffic, each reading at most `MAX_LLMS_TXT_ENTRIES_READ` entries.
 * Concurrent first requests share one generation.
 */
export class LlmsTxtFiles {
  private readonly files = new Map<string, LlmsTxtFile>();
  private readonly generating = new Map<string, Promise<LlmsTxtFile>>();

  constructor(
    private readonly cache: CacheStore,
    private readonly now: () => number,
    private readonly refreshMs: number,
    private readonly onRefreshFailure: (error: unknown, websiteId: string) => void,
    private readonly maxEntriesRead = MAX_LLMS_TXT_ENTRIES_READ,
  ) {}

  /** The website's file: kept, or generated now when there is none yet (rejects when the cache cannot be listed then). */
  of(websiteId: string, hostId: number, site: LlmsTxtSite): LlmsTxtFile | Promise<LlmsTxtFile> {
    const file = this.files.get(websiteId);
    if (!file) return this.generate(websiteId, hostId, site);
    if (this.now() - file.generatedAt >= this.refreshMs) this.generate(websiteId, hostId, site).catch((error: unknown) => this.onRefreshFailure(error, websiteId));
    return file;
  }

  private generate(websiteId: string, hostId: number, site: LlmsTxtSite): Promise<LlmsTxtFile> {
    let generating = this.generating.get(websiteId);
    if (!generating) {
      generating = this.generated(hostId, site)
        .then((file) => {
          this.files.set(websiteId, file);
          return file;
        })
        .finally(() => this.generating.delete(websiteId));
      this.generating.set(websiteId, generating);
    }
    return generating;
  }

  private async generated(hostId: number, site: LlmsTxtSite): Promise<LlmsTxtFile> {
    const generatedAt = this.now();
    const entries: CacheEntry[] = [];
    for (let offset = 0; offset < this.maxEntriesRead; offset += LIST_PAGE) {
      const page = await this.cache.listEntries(hostId, {}, offset, Math.min(LIST_PAGE, this.maxEntriesRead - offset));
      entries.push(...page.entries);
      if (page.entries.length === 0 || offset + page.entries.length >= page.total) break;
    }
    const { text, listed, leftOut } = llmsTxt(site, llmsTxtPagesOf(entries));
    const raw = Buffer.from(text, 'utf8');
    return { text: raw, gzipped: gzipSync(raw), generatedAt, listed, leftOut };
  }
}

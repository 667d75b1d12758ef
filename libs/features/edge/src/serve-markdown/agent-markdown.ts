import { LRUCache } from 'lru-cache';
import type { CacheEntry } from '@bpc/cache-store';

/** A stored render's Markdown as the edge serves it, converted once. */
export interface MarkdownBody {
  readonly raw: Buffer;
  /** `raw` gzipped (made with it, off the serving thread). */
  readonly gzipped: Buffer;
  /** Tokens of the Markdown (gpt-tokenizer, o200k_base), for `X-Markdown-Tokens`. */
  readonly tokens: number;
  /** Cut at the Markdown cap, and says so at its end. */
  readonly truncated: boolean;
}

/** What a conversion is asked: the page's public URL, its stored HTML, when it was rendered and its canonical when its facts know it. */
export interface MarkdownRequest {
  readonly url: string;
  readonly html: string;
  readonly renderedAt: string;
  readonly canonical?: string | null;
}

/** What a conversion answers (bytes as they cross from a worker thread). */
export interface ConvertedMarkdown {
  readonly raw: Uint8Array;
  readonly gzipped: Uint8Array;
  readonly tokens: number;
  readonly truncated: boolean;
}

export type ConvertMarkdown = (request: MarkdownRequest) => Promise<ConvertedMarkdown>;

/** Told of each conversion's end (metrics, logs). */
export interface ConversionListener {
  converted(entry: CacheEntry, seconds: number): void;
  failed(error: unknown, entry: CacheEntry): void;
}

/** Renders whose conversion failed, remembered so a page that breaks the converter costs one attempt, not one per request. */
const FAILED_REMEMBERED = 1_000;

/**
 * Markdown for agents, converted once per stored render and kept in memory
 * (least recently used evicted first, up to `maxBytes` of Markdown and its
 * gzipped form). Keyed by the entry's body path: every put writes a new body
 * file and a file never changes, so the Markdown kept for a path is never
 * out of date for the entry naming it (and a re-render is converted anew).
 *
 * Concurrency: requests for a render being converted share its conversion.
 * A conversion that fails is remembered (the caller serves HTML), so a
 * hostile page is not converted again on every request.
 */
export class AgentMarkdown {
  private readonly kept: LRUCache<string, MarkdownBody>;
  private readonly converting = new Map<string, Promise<MarkdownBody | undefined>>();
  private readonly failed = new LRUCache<string, true>({ max: FAILED_REMEMBERED });

  constructor(
    maxBytes: number,
    private readonly convert: ConvertMarkdown,
    private readonly listener: ConversionListener,
  ) {
    this.kept = new LRUCache<string, MarkdownBody>({ maxSize: maxBytes, sizeCalculation: (body) => Math.max(1, body.raw.length + body.gzipped.length) });
  }

  /** The render's Markdown, kept or converted now; undefined when it cannot be converted (serve the HTML). */
  of(entry: CacheEntry, url: string, html: Buffer): MarkdownBody | Promise<MarkdownBody | undefined> | undefined {
    const path = entry.bodyPath;
    const kept = this.kept.get(path);
    if (kept) return kept;
    if (this.failed.has(path)) return undefined;
    let converting = this.converting.get(path);
    if (!converting) {
      converting = this.converted(entry, url, html).finally(() => this.converting.delete(path));
      this.converting.set(path, converting);
    }
    return converting;
  }

  /** Renders kept and their bytes (Markdown + gzipped). */
  usage(): { entries: number; bytes: number } {
    return { entries: this.kept.size, bytes: this.kept.calculatedSize };
  }

  private async converted(entry: CacheEntry, url: string, html: Buffer): Promise<MarkdownBody | undefined> {
    const started = performance.now();
    try {
      const answer = await this.convert({ url, html: html.toString('utf8'), renderedAt: new Date(entry.createdAt).toISOString(), canonical: entry.facts?.canonical ?? null });
      const body: MarkdownBody = { raw: asBuffer(answer.raw), gzipped: asBuffer(answer.gzipped), tokens: answer.tokens, truncated: answer.truncated };
      this.kept.set(entry.bodyPath, body);
      this.listener.converted(entry, (performance.now() - started) / 1000);
      return body;
    } catch (error) {
      this.failed.set(entry.bodyPath, true);
      this.listener.failed(error, entry);
      return undefined;
    }
  }
}

/** A worker's bytes as a Buffer, without a copy. */
const asBuffer = (bytes: Uint8Array): Buffer => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

import { normalizeHttpUrl } from '@bpc/domain';
import type { SitemapEntry } from './parse-sitemap';

/** Why a `<url>` entry was not taken. Every entry read is either accepted or counted in exactly one of these. */
export interface SkippedUrls {
  /** On a hostname that is not one of the website's. */
  offHost: number;
  /** No `<loc>`, a loc too long, or not an absolute http(s) URL. */
  invalid: number;
  /** Past the per-file or per-call cap. */
  overCap: number;
  /** `lastmod` not after the call's `lastmodAfter`. */
  notModified: number;
  /** The same URL (after normalisation) again. */
  duplicate: number;
}

export interface UrlTallyOptions {
  /** The website's hostnames (its host's `hostnames`). */
  readonly hostnames: readonly string[];
  /** Epoch ms: only entries whose lastmod is strictly later are taken (entries without a readable lastmod are taken). */
  readonly lastmodAfter?: number;
  /** Distinct URLs taken at most. */
  readonly maxUrls: number;
}

/**
 * Which URLs of the sitemaps read are recached, pure: entries are judged in
 * document order (files in index order), so the same sitemaps always give
 * the same URLs and counts.
 */
export class UrlTally {
  private readonly hostnames: ReadonlySet<string>;
  private readonly urls = new Set<string>();
  readonly skipped: SkippedUrls = { offHost: 0, invalid: 0, overCap: 0, notModified: 0, duplicate: 0 };
  found = 0;

  constructor(private readonly options: UrlTallyOptions) {
    this.hostnames = new Set(options.hostnames.map((name) => name.toLowerCase()));
  }

  /** One sitemap's entries, and how many more it had past its own cap. */
  addFile(entries: readonly SitemapEntry[], overCapInFile: number): void {
    this.found += entries.length + overCapInFile;
    this.skipped.overCap += overCapInFile;
    for (const entry of entries) this.add(entry);
  }

  accepted(): string[] {
    return [...this.urls];
  }

  private add(entry: SitemapEntry): void {
    const url = entry.loc === undefined ? undefined : normalizeHttpUrl(entry.loc);
    if (!url) return void (this.skipped.invalid += 1);
    if (!this.hostnames.has(url.hostname)) return void (this.skipped.offHost += 1);
    if (this.options.lastmodAfter !== undefined && entry.lastmod !== undefined) {
      const lastmod = parseW3cDate(entry.lastmod);
      if (lastmod !== undefined && lastmod <= this.options.lastmodAfter) return void (this.skipped.notModified += 1);
    }
    if (this.urls.has(url.href)) return void (this.skipped.duplicate += 1);
    if (this.urls.size >= this.options.maxUrls) return void (this.skipped.overCap += 1);
    this.urls.add(url.href);
  }
}

const W3C_DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;

/**
 * A sitemap `lastmod` (W3C Datetime: `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, or with a
 * time `THH:MM[:SS[.s]]` and a zone) as epoch ms; a time without a zone is
 * read as UTC. undefined for anything else, and for impossible dates.
 */
export function parseW3cDate(text: string): number | undefined {
  const match = W3C_DATE.exec(text.trim());
  if (!match) return undefined;
  const [, year, month = '01', day = '01', hour = '00', minute = '00', second = '00', fraction = '', zone = 'Z'] = match;
  const iso = `${year}-${month}-${day}T${hour}:${minute}:${second}${fraction.slice(0, 4)}${zone}`;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return undefined;
  // Date.parse rolls 2024-02-31 over into March; a date that does not exist is not a date.
  const check = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (check.getUTCMonth() !== Number(month) - 1 || check.getUTCDate() !== Number(day)) return undefined;
  return ms;
}

import { REVERSE_DNS_DOMAINS } from './operator-verification';
import type { OperatorRangeFile } from './published-ranges';
import { RANGE_SOURCES, type RangeSource } from './range-sources';

/** Where a file of a range set was copied from, when it was not downloaded from the operator. */
export interface RangeMirror {
  readonly repo: string;
  readonly path: string;
  readonly commit: string;
  /** The commit's date, `unknown` when only the commit is known. */
  readonly committed: string;
  readonly license: string;
  /** The date the mirror's copy last changed. */
  readonly changed?: string;
  /** The URLs the mirror read, where they differ from `urls`. */
  readonly read?: readonly string[];
  readonly note?: string;
}

/** What a range directory's sources.json says of each file in it. */
export interface RangeFileSource {
  readonly file: string;
  readonly operator: string;
  readonly crawlers?: string;
  /** The official URLs whose prefixes the file holds: one for a copy of an official file, several for their union. */
  readonly urls: readonly string[];
  /** The date (YYYY-MM-DD) the prefixes were fetched from the operator, by us or by the mirror; `unknown` if no one knows. */
  readonly downloaded: string;
  /** The file's own creationTime, `unknown` when the copy lost it. */
  readonly creationTime?: string;
  readonly mirror?: RangeMirror;
}

/** A range directory as read: its sources, its files, and whether it is a SAMPLE set (documentation addresses, for tests only). */
export interface RangeSet {
  readonly sample: boolean;
  readonly sources: readonly RangeFileSource[];
  readonly files: readonly OperatorRangeFile[];
}

/** Past this age the edge warns at startup that the set should be refreshed. */
export const RANGE_SET_STALE_DAYS = 180;

/** The official files (`RANGE_SOURCES`) whose URL no file of the set names. */
export function uncoveredRangeSources(sources: readonly RangeFileSource[]): RangeSource[] {
  const covered = new Set(sources.flatMap((source) => source.urls));
  return RANGE_SOURCES.filter((source) => !covered.has(source.url));
}

/**
 * Why a range set must not load, or none. Every file's operator must be one
 * that publishes ranges (a misspelt one would never match a claim). A real
 * set must also hold a file of every such operator (one missing is an
 * incomplete copy), and every official file of an operator that documents no
 * reverse DNS (OpenAI, Perplexity, DuckDuckGo): outside its ranges its
 * claims are `no`, so a missing file would prove its real crawlers false. An
 * official file of an operator with reverse DNS may be missing: its crawlers
 * are then checked by DNS. A SAMPLE set is only held to the first rule.
 */
export function rangeSetProblems(sources: readonly RangeFileSource[], { sample }: { readonly sample: boolean }): string[] {
  const operators = new Set(RANGE_SOURCES.map((source) => source.operator));
  const problems = sources.filter((source) => !operators.has(source.operator)).map((source) => `${source.file}: "${source.operator}" publishes no ranges we know (RANGE_SOURCES)`);
  if (sample) return problems;
  const withFiles = new Set(sources.map((source) => source.operator));
  for (const operator of operators) if (!withFiles.has(operator)) problems.push(`no file of ${operator}, which publishes ranges`);
  for (const source of uncoveredRangeSources(sources)) {
    if (withFiles.has(source.operator) && REVERSE_DNS_DOMAINS[source.operator] === undefined) problems.push(`no file holds ${source.url}: ${source.operator} documents no reverse DNS, so its real ${source.crawlers} would be proven false`);
  }
  return problems;
}

/** How old a real set is, for the edge's startup log. */
export interface RangeSetAge {
  /** The oldest date a file's prefixes are known to be current at (its download, else its creationTime); undefined if a file has neither. */
  readonly asOf?: string;
  readonly ageDays?: number;
  readonly stale: boolean;
  /** The official files the set lacks, whose crawlers only reverse DNS checks. */
  readonly reverseDnsOnly: readonly string[];
}

/** The age of a set at `now` (milliseconds since the epoch) and the official files it lacks. */
export function rangeSetAge(sources: readonly RangeFileSource[], now: number): RangeSetAge {
  const dates = sources.map((source) => [source.downloaded, source.creationTime?.slice(0, 10)].find((date) => date !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(date)));
  const reverseDnsOnly = uncoveredRangeSources(sources).map((source) => source.url);
  if (dates.length === 0 || dates.includes(undefined)) return { stale: false, reverseDnsOnly };
  const asOf = (dates as string[]).sort()[0];
  const ageDays = Math.floor((now - Date.parse(`${asOf}T00:00:00Z`)) / 86_400_000);
  return { asOf, ageDays, stale: ageDays > RANGE_SET_STALE_DAYS, reverseDnsOnly };
}

import { IssueSeverity, mostSevereFirst } from './page-issues';
import { isNoindex, PageFacts } from './page-facts';

export const CHANGE_FIELDS = ['noindex', 'status_code', 'canonical', 'structured_data', 'word_count', 'title', 'description', 'h1', 'nofollow', 'lang'] as const;
export type ChangeField = (typeof CHANGE_FIELDS)[number];

/** One difference between a page's facts at two renders; `before` and `after` as the customer reads them. */
export interface PageChange {
  readonly field: ChangeField;
  readonly before: string;
  readonly after: string;
  readonly severity: IssueSeverity;
}

/** Longest `before` or `after` kept: a title is already cut to 512, but a canonical URL or a list of structured data types is not. */
export const MAX_CHANGE_TEXT = 2048;

const shown = (value: string | null): string => value ?? '';
const cut = (text: string): string => (text.length > MAX_CHANGE_TEXT ? text.slice(0, MAX_CHANGE_TEXT) : text);
const isError = (status: number): boolean => status >= 400;

/**
 * What changed from one render's facts to the next render's (of the same URL
 * and dimension), most severe first: `noindex` appearing and the status
 * turning to an error are critical; the canonical, a structured data type
 * removed, the word count halved are warnings; the rest are notices.
 */
export function changesBetween(before: PageFacts, after: PageFacts): PageChange[] {
  const changes: PageChange[] = [];
  const add = (field: ChangeField, from: string, to: string, severity: IssueSeverity): void => {
    if (from !== to) changes.push({ field, before: cut(from), after: cut(to), severity });
  };
  const noindexBefore = isNoindex(before);
  const noindexAfter = isNoindex(after);
  add('noindex', String(noindexBefore), String(noindexAfter), noindexAfter ? 'critical' : 'notice');
  add('status_code', String(before.statusCode), String(after.statusCode), isError(after.statusCode) && !isError(before.statusCode) ? 'critical' : 'notice');
  add('canonical', shown(before.canonical), shown(after.canonical), 'warning');
  const typesBefore = [...before.jsonLdTypes, ...before.microdataTypes];
  const typesAfter = [...after.jsonLdTypes, ...after.microdataTypes];
  const removed = typesBefore.some((type) => !typesAfter.includes(type));
  add('structured_data', [...new Set(typesBefore)].sort().join(', '), [...new Set(typesAfter)].sort().join(', '), removed ? 'warning' : 'notice');
  if (after.wordCount < before.wordCount / 2) add('word_count', String(before.wordCount), String(after.wordCount), 'warning');
  add('title', shown(before.title), shown(after.title), 'notice');
  add('description', shown(before.description), shown(after.description), 'notice');
  add('h1', shown(before.firstH1), shown(after.firstH1), 'notice');
  add('nofollow', String(before.nofollowBy.length > 0), String(after.nofollowBy.length > 0), after.nofollowBy.length > 0 ? 'warning' : 'notice');
  add('lang', shown(before.lang), shown(after.lang), 'notice');
  return changes.sort(mostSevereFirst);
}

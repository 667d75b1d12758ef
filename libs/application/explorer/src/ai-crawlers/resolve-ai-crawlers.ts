import { validationError, type HostDefinition } from '@bpc/domain';
import { resolveInsightsBotCategories, type ResolvedWindow } from '../insights/resolve-insights';
import type { ResolvedFilter } from '../resolve-query/resolve-query';
import type { InsightsAiCrawlersBody } from './ai-crawlers.query';

export interface ResolvedAiCrawlers {
  readonly filters: readonly ResolvedFilter[];
  readonly main: ResolvedWindow;
  /** Lowercase, one of the host's hostnames. */
  readonly hostname: string;
}

/**
 * Period and filters by the `events` explorer's rules (as bot-categories),
 * and the hostname whose robots.txt is read: one of the website's host's,
 * case aside; default the first. Another is 400 naming `hostname` (the
 * answer names none of the host's, which the caller may not know).
 */
export function resolveAiCrawlers(body: InsightsAiCrawlersBody, host: HostDefinition, nowMs: number): ResolvedAiCrawlers {
  const { filters, main } = resolveInsightsBotCategories(body, nowMs);
  const hostnames = host.hostnames.map((name) => name.toLowerCase());
  const hostname = body.hostname === undefined ? hostnames[0] : body.hostname.trim().toLowerCase();
  if (hostname === undefined || !hostnames.includes(hostname)) throw validationError('hostname', "hostname must be one of the website's hostnames");
  return { filters, main, hostname };
}

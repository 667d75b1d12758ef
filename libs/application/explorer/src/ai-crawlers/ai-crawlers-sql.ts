import { BOT_REQUESTS_TABLE } from '@bpc/explorer-store';
import type { TimeWindow } from '../periods/periods';
import type { ResolvedFilter } from '../resolve-query/resolve-query';
import { eventConditions, type InsightsStatement } from '../insights/insights-sql';

/** Most requested URLs of the hostname tried on every agent's robots.txt group. */
export const REQUESTED_PATHS_TRIED = 5;
/** Disallowed URLs shown per agent. */
export const TOP_DISALLOWED_URLS = 3;
/** Claimed bots and URLs shown for spoofed traffic. */
export const TOP_SPOOFED = 5;

export interface AgentRow {
  readonly bot_name: string;
  readonly requests: number;
  readonly disallowed: number;
}

export interface AgentUrlRow {
  readonly bot_name: string;
  readonly url: string;
  readonly requests: number;
}

export interface UrlRow {
  readonly url: string;
  readonly requests: number;
}

export interface SpoofedTotalsRow {
  readonly requests: number;
  readonly spoofed: number;
  readonly renders_avoided: number;
  readonly renders_caused: number;
}

export interface SpoofedTopRow {
  /** `bot` or `url`. */
  readonly kind: string;
  readonly item: string;
  readonly requests: number;
}

/** A claim proven false, on a miss the edge answered 403 UNVERIFIED_BOT (it records such an answer as a miss): no render started. */
const RENDER_AVOIDED = "verified = 'no' AND cache_status = 'miss' AND status_code = 403";
const RENDER_CAUSED = "verified = 'no' AND cache_status = 'miss' AND status_code != 403";

/**
 * The figures of the ai-crawlers insight over the `events` explorer's rows
 * (window and filters, `bot_requests FINAL`), five statements: the agents'
 * requests and disallowed requests, their top disallowed URLs (`LIMIT … BY`),
 * the hostname's most requested URLs, the spoofed totals, and the spoofed
 * claimed bots and URLs in one scan (`ARRAY JOIN` of both keys). User values
 * travel as bound parameters only.
 */
export function aiCrawlersSql(
  websiteId: string,
  window: TimeWindow,
  filters: readonly ResolvedFilter[],
  agentNames: readonly string[],
  hostname: string,
): { agents: InsightsStatement; agentUrls: InsightsStatement; requestedUrls: InsightsStatement; spoofedTotals: InsightsStatement; spoofedTops: InsightsStatement } {
  const params: Record<string, unknown> = {
    website: websiteId,
    start: window.start,
    end: window.end,
    agents: [...agentNames],
    hostname,
    topDisallowed: TOP_DISALLOWED_URLS,
    topRequested: REQUESTED_PATHS_TRIED,
    topSpoofed: TOP_SPOOFED,
  };
  const where = eventConditions('ts >= {start:DateTime64(3)} AND ts < {end:DateTime64(3)}', filters, params).join(' AND ');
  const ofAgents = `${where} AND bot_name IN {agents:Array(String)}`;
  return {
    agents: { sql: `SELECT bot_name, count() AS requests, countIf(robots_allowed = 'no') AS disallowed FROM ${BOT_REQUESTS_TABLE} FINAL WHERE ${ofAgents} GROUP BY bot_name`, params },
    agentUrls: {
      sql: `SELECT bot_name, url, count() AS requests FROM ${BOT_REQUESTS_TABLE} FINAL WHERE ${ofAgents} AND robots_allowed = 'no' GROUP BY bot_name, url ORDER BY bot_name ASC, requests DESC, url ASC LIMIT {topDisallowed:UInt32} BY bot_name`,
      params,
    },
    requestedUrls: {
      sql: `SELECT url, count() AS requests FROM ${BOT_REQUESTS_TABLE} FINAL WHERE ${where} AND host = {hostname:String} GROUP BY url ORDER BY requests DESC, url ASC LIMIT {topRequested:UInt32}`,
      params,
    },
    spoofedTotals: {
      sql: `SELECT count() AS requests, countIf(verified = 'no') AS spoofed, countIf(${RENDER_AVOIDED}) AS renders_avoided, countIf(${RENDER_CAUSED}) AS renders_caused FROM ${BOT_REQUESTS_TABLE} FINAL WHERE ${where}`,
      params,
    },
    spoofedTops: {
      sql:
        `SELECT pair.1 AS kind, pair.2 AS item, count() AS requests FROM ${BOT_REQUESTS_TABLE} FINAL ` +
        "ARRAY JOIN [tuple('bot', toString(bot_name)), tuple('url', url)] AS pair " +
        `WHERE ${where} AND verified = 'no' GROUP BY kind, item ORDER BY kind ASC, requests DESC, item ASC LIMIT {topSpoofed:UInt32} BY kind`,
      params,
    },
  };
}

import type { QueryFilterInput } from '../resolve-query/query-body';
import type { WindowView } from '../insights/insights.query';
import type { RobotsStance } from './robots-stances';
import type { RobotsTxtView } from './site-robots-txt';

/** An ai-crawlers body after type checks (the DTO): one window, the events filters, and which hostname's robots.txt. */
export interface InsightsAiCrawlersBody {
  readonly period?: string;
  readonly filters?: readonly QueryFilterInput[];
  /** One of the website's hostnames; default its first. */
  readonly hostname?: string;
}

/** Which AI crawlers the site's robots.txt allows or blocks, which crawl disallowed pages anyway, and the bots whose claim was proven false. */
export class GetInsightsAiCrawlers {
  constructor(
    readonly websiteId: string,
    readonly accountId: string,
    /** The website's host (`websites[].host_id`): its hostnames and origin. */
    readonly hostId: number,
    readonly body: InsightsAiCrawlersBody,
    readonly receivedAtMs: number,
  ) {}
}

/** A URL with a count. */
export interface UrlCount {
  readonly url: string;
  readonly requests: number;
}

/** One AI agent of the vendored list: what robots.txt says of it, and what it did in the window. */
export interface AiCrawlerFigures {
  /** As the edge records it in `bot_name`. */
  readonly name: string;
  readonly operator: string;
  readonly category: string;
  readonly robotsTxtToken: string;
  /** For a robots.txt-only token (Google-Extended): the crawler that fetches for it; its requests are that crawler's. */
  readonly fetchedAs: string | null;
  readonly robots: RobotsStance;
  /** The robots.txt has a group of its own for its token; else the rules for all bots (`*`) apply to it. */
  readonly namedInRobotsTxt: boolean;
  /** Paths tried that it may not fetch (at most MAX_DISALLOWED_PATHS_SHOWN). */
  readonly disallowedPaths: readonly string[];
  readonly requests: number;
  /** Its requests recorded with `robots_allowed = no`: URLs the robots.txt in force disallowed it, fetched anyway. */
  readonly disallowedRequests: number;
  /** Its most requested such URLs, most first (at most TOP_DISALLOWED_URLS). */
  readonly topDisallowedUrls: readonly UrlCount[];
}

export interface AiCrawlersSummary {
  readonly allowed: number;
  readonly partlyDisallowed: number;
  readonly blocked: number;
  readonly unknown: number;
  /** Agents the robots.txt names (a group of their own): the rules written for them. */
  readonly namedInRobotsTxt: number;
  /** Agents of the list with requests in the window. */
  readonly agentsSeen: number;
  /** Their requests, all agents together. */
  readonly requests: number;
  readonly disallowedRequests: number;
  /** Agents with disallowed requests: those that crawl pages they are disallowed from anyway. */
  readonly agentsIgnoringRobotsTxt: number;
}

/** Bot requests whose claim was proven false (`verified = no`). */
export interface SpoofedFigures {
  readonly requests: number;
  /** Of the window's bot requests, 0..1 (4 decimals); null without requests. */
  readonly share: number | null;
  /** Misses answered 403 UNVERIFIED_BOT: renders the policy did not start. */
  readonly rendersAvoided: number;
  /** Misses answered otherwise: renders (or origin fetches) they caused (`spoofed_bots: render`). */
  readonly rendersCaused: number;
  readonly topClaimedBots: readonly { readonly bot: string; readonly requests: number }[];
  readonly topUrls: readonly UrlCount[];
}

export interface InsightsAiCrawlersResult {
  readonly data: {
    readonly robotsTxt: RobotsTxtView;
    /** Paths tried on every agent: `/`, those the robots.txt disallows, the hostname's most requested. */
    readonly checkedPaths: readonly string[];
    readonly summary: AiCrawlersSummary;
    /** Every agent of the list: most requests first, then by name. */
    readonly agents: readonly AiCrawlerFigures[];
    readonly spoofed: SpoofedFigures;
  };
  readonly meta: { readonly period: string; readonly window: WindowView; readonly hostname: string };
}

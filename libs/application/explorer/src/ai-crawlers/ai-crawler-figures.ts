import type { AiAgent } from '@bpc/bots';
import type { AgentRow, AgentUrlRow, SpoofedTopRow, SpoofedTotalsRow } from './ai-crawlers-sql';
import type { AiCrawlerFigures, AiCrawlersSummary, InsightsAiCrawlersResult, SpoofedFigures } from './ai-crawlers.query';
import type { RobotsVerdict } from './robots-stances';

/** Disallowed paths shown per agent. */
export const MAX_DISALLOWED_PATHS_SHOWN = 5;

const UNKNOWN_VERDICT: RobotsVerdict = { stance: 'unknown', disallowedPaths: [], named: false };

function share(part: number, whole: number): number {
  return Math.round((part / whole) * 10_000) / 10_000;
}

function byName(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Every agent with its robots.txt verdict and its recorded figures (pure): most requests first, then by name. */
export function aiCrawlerFigures(agents: readonly AiAgent[], verdicts: ReadonlyMap<string, RobotsVerdict>, rows: readonly AgentRow[], urlRows: readonly AgentUrlRow[]): AiCrawlerFigures[] {
  const rowOf = new Map(rows.map((row) => [row.bot_name, row]));
  const urlsOf = new Map<string, { url: string; requests: number }[]>();
  for (const row of urlRows) urlsOf.set(row.bot_name, [...(urlsOf.get(row.bot_name) ?? []), { url: row.url, requests: Number(row.requests) }]);
  return agents
    .map((agent): AiCrawlerFigures => {
      const verdict = verdicts.get(agent.robotsTxtToken) ?? UNKNOWN_VERDICT;
      const row = rowOf.get(agent.name);
      return {
        name: agent.name,
        operator: agent.operator,
        category: agent.category,
        robotsTxtToken: agent.robotsTxtToken,
        fetchedAs: agent.fetchedAs,
        robots: verdict.stance,
        namedInRobotsTxt: verdict.named,
        disallowedPaths: verdict.disallowedPaths.slice(0, MAX_DISALLOWED_PATHS_SHOWN),
        requests: Number(row?.requests ?? 0),
        disallowedRequests: Number(row?.disallowed ?? 0),
        topDisallowedUrls: (urlsOf.get(agent.name) ?? []).sort((a, b) => b.requests - a.requests || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0)),
      };
    })
    .sort((a, b) => b.requests - a.requests || byName(a.name, b.name));
}

/** Counts over the agents (pure): how many the robots.txt allows, partly disallows, blocks; what they did. */
export function aiCrawlersSummary(agents: readonly AiCrawlerFigures[]): AiCrawlersSummary {
  const count = (stance: AiCrawlerFigures['robots']) => agents.filter((agent) => agent.robots === stance).length;
  return {
    allowed: count('allowed'),
    partlyDisallowed: count('partly_disallowed'),
    blocked: count('blocked'),
    unknown: count('unknown'),
    namedInRobotsTxt: agents.filter((agent) => agent.namedInRobotsTxt).length,
    agentsSeen: agents.filter((agent) => agent.requests > 0).length,
    requests: agents.reduce((sum, agent) => sum + agent.requests, 0),
    disallowedRequests: agents.reduce((sum, agent) => sum + agent.disallowedRequests, 0),
    agentsIgnoringRobotsTxt: agents.filter((agent) => agent.disallowedRequests > 0).length,
  };
}

/** Spoofed traffic from its two statements (pure): share of the window's requests, tops most requested first. */
export function spoofedFigures(totals: SpoofedTotalsRow | undefined, tops: readonly SpoofedTopRow[]): SpoofedFigures {
  const requests = Number(totals?.requests ?? 0);
  const spoofed = Number(totals?.spoofed ?? 0);
  const top = (kind: string) =>
    tops
      .filter((row) => row.kind === kind)
      .map((row) => ({ item: row.item, requests: Number(row.requests) }))
      .sort((a, b) => b.requests - a.requests || (a.item < b.item ? -1 : a.item > b.item ? 1 : 0));
  return {
    requests: spoofed,
    share: requests === 0 ? null : share(spoofed, requests),
    rendersAvoided: Number(totals?.renders_avoided ?? 0),
    rendersCaused: Number(totals?.renders_caused ?? 0),
    topClaimedBots: top('bot').map(({ item, requests: n }) => ({ bot: item, requests: n })),
    topUrls: top('url').map(({ item, requests: n }) => ({ url: item, requests: n })),
  };
}

/** The answer's `data` (pure). */
export function aiCrawlersData(
  robotsTxt: InsightsAiCrawlersResult['data']['robotsTxt'],
  checkedPaths: readonly string[],
  agents: readonly AiCrawlerFigures[],
  spoofed: SpoofedFigures,
): InsightsAiCrawlersResult['data'] {
  return { robotsTxt, checkedPaths, summary: aiCrawlersSummary(agents), agents, spoofed };
}

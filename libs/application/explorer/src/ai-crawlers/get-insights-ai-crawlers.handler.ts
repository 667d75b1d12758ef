import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { aiAgents } from '@bpc/bots';
import type { AppConfig } from '@bpc/config';
import { HostCatalog, type Clock } from '@bpc/domain';
import { EXPLORER_STORE, ExplorerAdmission, ExplorerStore } from '@bpc/explorer-store';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import { runAdmittedStatement } from '../run-explorer-query/run-admitted-statement';
import { windowView } from '../insights/window-view';
import { aiCrawlerFigures, aiCrawlersData, spoofedFigures } from './ai-crawler-figures';
import { GetInsightsAiCrawlers, InsightsAiCrawlersResult } from './ai-crawlers.query';
import { AgentRow, AgentUrlRow, aiCrawlersSql, SpoofedTopRow, SpoofedTotalsRow, UrlRow } from './ai-crawlers-sql';
import { resolveAiCrawlers } from './resolve-ai-crawlers';
import { pathsToTry, robotsVerdicts } from './robots-stances';
import { RobotsTxtReaderProvider } from './robots-txt-reader.provider';

/**
 * The AI crawlers' robots.txt verdicts and what they and claimed bots did:
 * the hostname's robots.txt (kept a few minutes) read while five statements
 * run through the explorer's admission queue and time budget (503
 * EXPLORER_BUSY, 504 QUERY_TIMEOUT as the explorer answers), then judged on
 * `/`, the paths the file disallows and the hostname's most requested ones.
 */
@QueryHandler(GetInsightsAiCrawlers)
export class GetInsightsAiCrawlersHandler implements IQueryHandler<GetInsightsAiCrawlers, InsightsAiCrawlersResult> {
  constructor(
    @Inject(EXPLORER_STORE) private readonly store: ExplorerStore,
    private readonly admission: ExplorerAdmission,
    private readonly hosts: HostCatalog,
    private readonly robotsTxt: RobotsTxtReaderProvider,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ websiteId, accountId, hostId, body, receivedAtMs }: GetInsightsAiCrawlers): Promise<InsightsAiCrawlersResult> {
    const host = this.hosts.host(hostId)!;
    const { filters, main, hostname } = resolveAiCrawlers(body, host, this.clock.now());
    const agents = aiAgents();
    const sql = aiCrawlersSql(websiteId, main.window, filters, agents.map((agent) => agent.name), hostname);
    const runner = { store: this.store, admission: this.admission, config: this.config };
    const statement = { filters, accountId, deadlineMs: receivedAtMs + this.config.explorer.query_timeout_ms };
    const run = <T>(s: { sql: string; params: Record<string, unknown> }) => runAdmittedStatement<T>(runner, statement, s.sql, s.params);
    const [snapshot, agentRows, agentUrls, requestedUrls, [spoofedTotals], spoofedTops] = await Promise.all([
      this.robotsTxt.reader.read(hostname, { hostnames: host.hostnames, origin: host.origin }),
      run<AgentRow>(sql.agents),
      run<AgentUrlRow>(sql.agentUrls),
      run<UrlRow>(sql.requestedUrls),
      run<SpoofedTotalsRow>(sql.spoofedTotals),
      run<SpoofedTopRow>(sql.spoofedTops),
    ]);
    const paths = pathsToTry(snapshot, requestedUrls.flatMap((row) => pathOf(row.url)));
    const verdicts = robotsVerdicts(snapshot, `https://${hostname}`, agents.map((agent) => agent.robotsTxtToken), paths);
    const figures = aiCrawlerFigures(agents, verdicts, agentRows, agentUrls);
    return { data: aiCrawlersData(snapshot.view, paths, figures, spoofedFigures(spoofedTotals, spoofedTops)), meta: { period: main.period, window: windowView(main.window), hostname } };
  }
}

/** A recorded URL's path and query, as robots.txt rules match them; none for a URL that does not parse (the edge records parsed URLs, but the table is not ours alone). */
function pathOf(url: string): string[] {
  const parsed = URL.parse(url);
  return parsed ? [`${parsed.pathname}${parsed.search}`] : [];
}

import { useState } from 'react';
import { Link } from 'react-router';
import type { AiCrawler, AiCrawlersResult } from '../../api/types';
import { explorerSearchParams, type FilterState as ExplorerFilter } from '../../lib/explorer-state';
import { formatInteger } from '../../lib/format';
import { Time } from '../../components/time';
import { pathOf } from './use-ai-crawlers';

const STANCE_TEXT: Record<string, string> = {
  allowed: 'Allowed',
  partly_disallowed: 'Partly disallowed',
  blocked: 'Blocked',
  unknown: 'Unknown',
};

const CATEGORY_TEXT: Record<string, string> = {
  ai_search: 'AI search',
  ai_assistant: 'AI assistant',
  ai_training: 'AI training',
  search: 'Search',
  social: 'Social',
};

const ROBOTS_STATE_TEXT: Record<string, string> = {
  rules: 'read',
  none: 'absent (no file: every crawler may fetch everything)',
  server_error: 'failing (crawlers must then fetch nothing)',
  unreachable: 'could not be read',
  unjudged: 'too large to judge here',
};

/** What a row shows by default: agents that read the site in the period, and those its robots.txt names (the rules written for them). */
function shownByDefault(agent: AiCrawler): boolean {
  return agent.requests > 0 || agent.namedInRobotsTxt;
}

/**
 * Which AI crawlers the site's robots.txt allows, partly disallows or
 * blocks, and which crawl disallowed pages anyway: one row per AI agent of
 * the vendored list, each figure linking to its rows in the explorer.
 */
export function AiCrawlersTable({ website, period, data }: { website: string; period: string; data: AiCrawlersResult['data'] }) {
  const [all, setAll] = useState(false);
  const rows = all ? data.agents : data.agents.filter(shownByDefault);
  const { summary, robotsTxt } = data;
  const explorerUrl = (filters: ExplorerFilter[], mode: 'requests' | 'unique_pages' = 'requests') =>
    `/w/${encodeURIComponent(website)}/explorer?${explorerSearchParams({ explorer: 'events', mode, period, filters, ...(mode === 'unique_pages' ? { sort: 'requests', sortDir: 'desc' as const } : {}) }).toString()}`;
  const ofAgent = (agent: AiCrawler): ExplorerFilter => ({ field: 'bot_name', op: 'equals', val: agent.name });
  const disallowed: ExplorerFilter = { field: 'robots_allowed', op: 'eq', val: 'no' };
  return (
    <section aria-labelledby="ai-crawlers-heading">
      <h2 id="ai-crawlers-heading">AI crawlers and robots.txt</h2>
      <p>
        <a href={robotsTxt.url}>{robotsTxt.url}</a> {ROBOTS_STATE_TEXT[robotsTxt.state] ?? robotsTxt.state}
        {robotsTxt.reason ? `: ${robotsTxt.reason}` : ''} (fetched <Time iso={robotsTxt.fetchedAt} />
        {robotsTxt.truncated ? ', only its first 500 KiB read' : ''}).
      </p>
      <p>
        It names {formatInteger(summary.namedInRobotsTxt)} of the {formatInteger(data.agents.length)} known AI agents. Of all of them it allows {formatInteger(summary.allowed)}, partly disallows{' '}
        {formatInteger(summary.partlyDisallowed)} and blocks {formatInteger(summary.blocked)}
        {summary.unknown ? ` (${formatInteger(summary.unknown)} unknown)` : ''}. {formatInteger(summary.agentsSeen)} of them made {formatInteger(summary.requests)} requests;{' '}
        {summary.disallowedRequests
          ? `${formatInteger(summary.agentsIgnoringRobotsTxt)} of them fetched ${formatInteger(summary.disallowedRequests)} pages robots.txt disallowed them anyway (the rows below link to them)`
          : 'none fetched a page robots.txt disallowed it'}
        .
      </p>
      <p className="muted small">Checked on {data.checkedPaths.join(', ')}.</p>
      <label className="block">
        <input type="checkbox" checked={all} onChange={(event) => setAll(event.target.checked)} /> Show all {formatInteger(data.agents.length)} known AI agents
      </label>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">{all ? 'Every known AI agent' : 'AI agents that read the site in the period, and those its robots.txt names'}: what robots.txt says of each and what it crawled</caption>
          <thead>
            <tr>
              <th scope="col">Agent</th>
              <th scope="col">Operator</th>
              <th scope="col">Purpose</th>
              <th scope="col">robots.txt</th>
              <th scope="col" className="num">
                Requests
              </th>
              <th scope="col" className="num">
                Disallowed, fetched anyway
              </th>
              <th scope="col">Top disallowed pages</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((agent) => (
              <tr key={agent.name}>
                <th scope="row">
                  {agent.name}
                  {agent.fetchedAs ? <span className="muted small block">robots.txt token; fetched as {agent.fetchedAs}</span> : null}
                </th>
                <td>{agent.operator}</td>
                <td>{CATEGORY_TEXT[agent.category] ?? agent.category}</td>
                <td>
                  {STANCE_TEXT[agent.robots] ?? agent.robots}
                  {agent.robots === 'partly_disallowed' ? <span className="muted small block">{agent.disallowedPaths.join(', ')}</span> : null}
                  {agent.robots !== 'unknown' && robotsTxt.state === 'rules' ? <span className="muted small block">{agent.namedInRobotsTxt ? 'named in robots.txt' : 'rules for all bots (*)'}</span> : null}
                </td>
                <td className="num">{agent.requests ? <Link to={explorerUrl([ofAgent(agent)])} aria-label={`${formatInteger(agent.requests)} requests by ${agent.name}`}>{formatInteger(agent.requests)}</Link> : '0'}</td>
                <td className="num">
                  {agent.disallowedRequests ? (
                    <Link to={explorerUrl([ofAgent(agent), disallowed])} aria-label={`${formatInteger(agent.disallowedRequests)} disallowed requests by ${agent.name}`}>
                      {formatInteger(agent.disallowedRequests)}
                    </Link>
                  ) : (
                    '0'
                  )}
                </td>
                <td className="url">
                  {agent.topDisallowedUrls.map((page) => (
                    <Link key={page.url} className="block" to={explorerUrl([ofAgent(agent), disallowed, { field: 'url', op: 'equals', val: page.url }])} title={page.url}>
                      {pathOf(page.url)} ({formatInteger(page.requests)})
                    </Link>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.length === 0 ? <p className="muted small">No AI agent read the site in this period, and its robots.txt names none.</p> : null}
    </section>
  );
}

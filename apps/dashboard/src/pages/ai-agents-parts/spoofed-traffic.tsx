import { Link } from 'react-router';
import type { AiCrawlersResult } from '../../api/types';
import { explorerSearchParams, type FilterState as ExplorerFilter } from '../../lib/explorer-state';
import { formatInteger, formatPercent } from '../../lib/format';
import { pathOf } from './use-ai-crawlers';
import { RequestsTable } from '../../components/requests-table';

/**
 * Bot requests whose claim was proven false (`verified = no`): how many, the
 * renders the spoofed bot policy avoided, the bots most claimed and the URLs
 * they asked for, each linking to its rows in the explorer.
 */
export function SpoofedTraffic({ website, period, spoofed }: { website: string; period: string; spoofed: AiCrawlersResult['data']['spoofed'] }) {
  const proven: ExplorerFilter = { field: 'verified', op: 'eq', val: 'no' };
  const explorerUrl = (filters: ExplorerFilter[]) => `/w/${encodeURIComponent(website)}/explorer?${explorerSearchParams({ explorer: 'events', mode: 'requests', period, filters }).toString()}`;
  return (
    <section aria-labelledby="spoofed-heading">
      <h2 id="spoofed-heading">Spoofed bots</h2>
      {spoofed.requests === 0 ? (
        <p>No request in this period claimed to be a bot it was proven not to be.</p>
      ) : (
        <>
          <p>
            <Link to={explorerUrl([proven])}>{formatInteger(spoofed.requests)} requests</Link> claimed to be a bot they were proven not to be ({formatPercent(spoofed.share)} of bot requests).{' '}
            {formatInteger(spoofed.rendersAvoided)} renders were avoided (a page not cached, refused with 403)
            {spoofed.rendersCaused ? `; ${formatInteger(spoofed.rendersCaused)} were rendered for them` : ''}. Client addresses are not recorded.
          </p>
          <div className="grid-2">
            <RequestsTable
              caption="Bots most claimed falsely"
              heading="Claimed bot"
              rows={spoofed.topClaimedBots.map((row) => ({
                key: row.bot,
                requests: row.requests,
                label: <Link to={explorerUrl([proven, { field: 'bot_name', op: 'equals', val: row.bot }])}>{row.bot}</Link>,
              }))}
            />
            <RequestsTable
              caption="Pages spoofed bots requested most"
              heading="Page"
              urls
              rows={spoofed.topUrls.map((row) => ({
                key: row.url,
                requests: row.requests,
                label: (
                  <Link to={explorerUrl([proven, { field: 'url', op: 'equals', val: row.url }])} title={row.url}>
                    {pathOf(row.url)}
                  </Link>
                ),
              }))}
            />
          </div>
        </>
      )}
    </section>
  );
}

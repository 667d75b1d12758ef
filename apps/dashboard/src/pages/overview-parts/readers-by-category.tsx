import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../api/endpoints';
import { useDiscovery } from '../../api/use-discovery';
import type { BotCategoriesResult } from '../../api/types';
import { explorerSearchParams } from '../../lib/explorer-state';
import { formatInteger, formatPercent } from '../../lib/format';

type Figures = BotCategoriesResult['data'];

/** Category labels as discovery gives them (the `bot_category` filter's options); a value it does not list shows as recorded. */
function useCategoryLabels(website: string): (category: string) => string {
  const discovery = useDiscovery(website);
  const filter = discovery.data?.explorers.find((e) => e.key === 'events')?.modes[0]?.filters.find((f) => f.field === 'bot_category');
  return (category) => filter?.options?.find((o) => o.value === category)?.label ?? category;
}

/** The path part of a page URL, for a compact table (the full URL stays in the link's title). */
function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

/**
 * Who read the website in the period: bot requests by category with their
 * share and pages, what AI agents read in one sentence, and the pages each
 * AI category read most; every figure links to the explorer's rows behind it.
 */
export function ReadersByCategory({ website, period }: { website: string; period: string }) {
  const figures = useQuery({ queryKey: ['bot-categories', website, period], queryFn: ({ signal }) => api.insights.botCategories(website, { period }, signal) });
  const label = useCategoryLabels(website);
  const explorerUrl = (category: string, mode: 'requests' | 'unique_pages', url?: string) => {
    const filters = [{ field: 'bot_category', op: 'eq', val: category }, ...(url ? [{ field: 'url', op: 'equals', val: url }] : [])];
    const sort = mode === 'unique_pages' ? { sort: 'requests', sortDir: 'desc' as const } : {};
    return `/w/${encodeURIComponent(website)}/explorer?${explorerSearchParams({ explorer: 'events', mode, period, filters, ...sort }).toString()}`;
  };

  if (figures.error) return <p className="form-error">{figures.error.message}</p>;
  if (!figures.data) return <p className="muted small" role="status">Loading who reads…</p>;
  const data: Figures = figures.data.data;
  return (
    <section aria-labelledby="readers-heading">
      <h2 id="readers-heading">Who reads</h2>
      <p>
        AI agents made {formatInteger(data.aiAgents.requests)} requests for {formatInteger(data.aiAgents.pages)} pages, {formatPercent(data.aiAgents.share)} of bot requests.{' '}
        <Link to={`/w/${encodeURIComponent(website)}/ai-agents?${new URLSearchParams({ period }).toString()}`}>Which AI crawlers robots.txt allows, and which crawl anyway</Link>
      </p>
      <div className="grid-2">
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Bot requests by category</caption>
            <thead>
              <tr>
                <th scope="col">Category</th>
                <th scope="col" className="num">Requests</th>
                <th scope="col" className="num">Share</th>
                <th scope="col" className="num">Pages</th>
              </tr>
            </thead>
            <tbody>
              {data.categories.map((row) => (
                <tr key={row.category}>
                  <th scope="row">
                    <Link to={explorerUrl(row.category, 'requests')}>{label(row.category)}</Link>
                  </th>
                  <td className="num">{formatInteger(row.requests)}</td>
                  <td className="num">{formatPercent(row.share)}</td>
                  <td className="num">
                    <Link to={explorerUrl(row.category, 'unique_pages')} aria-label={`${formatInteger(row.pages)} pages read by ${label(row.category)} bots`}>
                      {formatInteger(row.pages)}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {data.topAiPages.length ? (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">The pages each kind of AI agent read most</caption>
              <thead>
                <tr>
                  <th scope="col">AI agents</th>
                  <th scope="col">Page</th>
                  <th scope="col" className="num">Requests</th>
                </tr>
              </thead>
              <tbody>
                {data.topAiPages.map((row) => (
                  <tr key={`${row.category} ${row.url}`}>
                    <td>{label(row.category)}</td>
                    <td className="url">
                      <Link to={explorerUrl(row.category, 'requests', row.url)} title={row.url}>
                        {pathOf(row.url)}
                      </Link>
                    </td>
                    <td className="num">{formatInteger(row.requests)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="muted small">No AI agent read a page in this period.</p>
        )}
      </div>
    </section>
  );
}

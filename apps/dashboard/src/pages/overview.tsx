import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { api } from '../api/endpoints';
import type { CompCategory, Summary } from '../api/types';
import { Cell } from '../components/data-table';
import { EmptyWebsite } from '../components/empty-website';
import { FieldError } from '../components/field-error';
import { PeriodPicker } from '../components/period-picker';
import { RequestsTable } from '../components/requests-table';
import { Time } from '../components/time';
import { TimeChart } from '../components/time-chart';
import { delta } from '../lib/chart-data';
import { explorerSearchParams } from '../lib/explorer-state';
import { formatInteger, formatMs, formatPercent } from '../lib/format';
import { OVERVIEW_PRESETS } from '../lib/periods';
import { useWebsite } from '../session';
import { ReadersByCategory } from './overview-parts/readers-by-category';

const DEFAULT_PERIOD = '7d';

interface Kpi {
  key: keyof Summary;
  label: string;
  kind: 'count' | 'ratio';
  format: (v: number | null) => string;
  /** Which way is better, for the delta's colour. */
  better?: 'up' | 'down';
}

const KPIS: Kpi[] = [
  { key: 'requests', label: 'Bot requests', kind: 'count', format: formatInteger },
  { key: 'pages', label: 'Pages crawled', kind: 'count', format: formatInteger },
  { key: 'hitRate', label: 'Cache hit rate', kind: 'ratio', format: formatPercent, better: 'up' },
  { key: 'serveTimeP50Ms', label: 'Serve time p50', kind: 'count', format: formatMs, better: 'down' },
  { key: 'serveTimeP95Ms', label: 'Serve time p95', kind: 'count', format: formatMs, better: 'down' },
  { key: 'share4xx', label: '4xx answers', kind: 'ratio', format: formatPercent, better: 'down' },
  { key: 'share5xx', label: '5xx answers', kind: 'ratio', format: formatPercent, better: 'down' },
  { key: 'rendersFailed', label: 'Renders failed', kind: 'count', format: formatInteger, better: 'down' },
];

const countFormat = (v: number) => formatInteger(v);

function DeltaText({ kpi, current, previous }: { kpi: Kpi; current: number | null; previous: number | null }) {
  const change = delta(current, previous, kpi.kind);
  // A count from zero has no relative change: say so rather than "no figure".
  if (change === undefined) return <span className="muted small">{previous === 0 ? 'none in the previous period' : 'no previous figure'}</span>;
  const sign = change > 0 ? '+' : change < 0 ? '−' : '±';
  const text = kpi.kind === 'ratio' ? `${sign}${Math.abs(change * 100).toFixed(1)} pts` : `${sign}${Math.abs(change * 100).toFixed(1)} %`;
  const good = kpi.better && change !== 0 ? (kpi.better === 'up') === change > 0 : undefined;
  return (
    <span className={`small ${good === undefined ? 'muted' : good ? 'delta-up' : 'delta-down'}`}>
      {text} vs previous ({kpi.format(previous)})
    </span>
  );
}

/** A website at a glance for a period against the one before: KPI cards, requests over time by bot family and by cache status, who reads (bot categories, AI agents' pages), top pages, new and lost pages. */
export default function OverviewPage() {
  const { website = '' } = useParams();
  const view = useWebsite();
  const [params, setParams] = useSearchParams();
  const period = params.get('period') || DEFAULT_PERIOD;
  const summary = useQuery({ queryKey: ['summary', website, period], queryFn: ({ signal }) => api.insights.summary(website, { period }, signal) });
  const empty = summary.data ? !summary.data.data.current.requests : false;
  const byBot = useQuery({
    queryKey: ['timeseries', website, period, 'requests', 'bot_family'],
    queryFn: ({ signal }) => api.insights.timeseries(website, { metric: 'requests', period, splitBy: 'bot_family' }, signal),
    enabled: !!summary.data && !empty,
  });
  const byCache = useQuery({
    queryKey: ['timeseries', website, period, 'requests', 'cache_status'],
    queryFn: ({ signal }) => api.insights.timeseries(website, { metric: 'requests', period, splitBy: 'cache_status' }, signal),
    enabled: !!summary.data && !empty,
  });
  const topPages = useQuery({
    queryKey: ['query', website, 'events', 'top-pages', period],
    queryFn: ({ signal }) => api.explorer.query(website, 'events', { mode: 'unique_pages', columns: ['page', 'requests'], sort: 'requests', sortDir: 'desc', perPage: 10, period }, signal),
    enabled: !!summary.data && !empty,
  });
  const explorerUrl = (state: Parameters<typeof explorerSearchParams>[0]) => `/w/${encodeURIComponent(website)}/explorer?${explorerSearchParams(state).toString()}`;
  const comparisonUrl = (category: CompCategory) => explorerUrl({ explorer: 'events', mode: 'comparison', period, compCategory: category, filters: [] });
  const interval = byBot.data?.meta.interval;

  return (
    <>
      <h1>Overview</h1>
      <div className="row">
        <PeriodPicker id="period" label="Period" presets={OVERVIEW_PRESETS} value={period} onChange={(p) => setParams(p ? { period: p } : {})} invalid={summary.error?.field === 'period' || undefined} />
        {summary.data ? (
          <p className="muted small">
            <Time iso={summary.data.meta.window.start} /> to <Time iso={summary.data.meta.window.end} />, against <Time iso={summary.data.meta.compWindow.start} /> to{' '}
            <Time iso={summary.data.meta.compWindow.end} />
          </p>
        ) : null}
      </div>
      <FieldError error={summary.error} control="period" controls={['period']} />
      {summary.error && summary.error.field !== 'period' ? (
        <p className="form-error" role="alert">
          {summary.error.message}
        </p>
      ) : null}
      {summary.isPending ? (
        <p className="page-status" role="status">
          Loading…
        </p>
      ) : null}
      {summary.data && empty && view ? <EmptyWebsite website={view} /> : null}
      {summary.data && !empty ? (
        <>
          <section aria-label="Key figures" className="cards">
            {KPIS.map((kpi) => (
              <div className="card" key={kpi.key}>
                <div className="muted small">{kpi.label}</div>
                <div className="kpi-value">{kpi.format(summary.data.data.current[kpi.key])}</div>
                <DeltaText kpi={kpi} current={summary.data.data.current[kpi.key]} previous={summary.data.data.previous[kpi.key]} />
                {kpi.key === 'rendersFailed' && summary.data.data.current.rendersFailed ? (
                  <Link className="small block" to={`/w/${encodeURIComponent(website)}/renders?${new URLSearchParams({ period, trigger: 'edge_miss', show: 'failed' }).toString()}`}>
                    Why: failures by reason
                  </Link>
                ) : null}
              </div>
            ))}
            <div className="card">
              <div className="muted small">Pages new / lost</div>
              <div className="kpi-value">
                <Link to={comparisonUrl('new')} title="Pages bots requested in this period only">
                  {formatInteger(summary.data.data.newPages)}
                </Link>{' '}
                /{' '}
                <Link to={comparisonUrl('lost')} title="Pages bots requested in the previous period only">
                  {formatInteger(summary.data.data.lostPages)}
                </Link>
              </div>
              <span className="muted small">vs the previous period</span>
            </div>
          </section>
          <h2>Requests over time{interval ? (interval === 'hour' ? ', per hour' : ', per day') : ''}</h2>
          <div className="grid-2">
            {byBot.error ? <p className="form-error">{byBot.error.message}</p> : <TimeChart title="By bot family" series={byBot.data?.data.series} format={countFormat} integer />}
            {byCache.error ? <p className="form-error">{byCache.error.message}</p> : <TimeChart title="By cache status" series={byCache.data?.data.series} format={countFormat} integer />}
          </div>
          <ReadersByCategory website={website} period={period} />
          <h2>Top pages</h2>
          {topPages.error ? <p className="form-error">{topPages.error.message}</p> : null}
          {topPages.data ? (
            <RequestsTable
              caption="The 10 pages bots requested most"
              heading="Page"
              urls
              rows={topPages.data.data.map((row) => ({
                key: String(row._rowId),
                requests: row.requests as number,
                label: <Cell column={{ key: 'page', title: 'Page', group: '', dataType: 'string', sortable: true, modes: [] }} row={row} />,
              }))}
            />
          ) : null}
          <p>
            <Link to={explorerUrl({ explorer: 'events', mode: 'unique_pages', period, sort: 'requests', sortDir: 'desc', filters: [] })}>All pages in the Data Explorer</Link>
          </p>
        </>
      ) : null}
    </>
  );
}

import { useState, type ChangeEvent, type FormEvent } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import type { ApiError } from '../api/api-error';
import { api } from '../api/endpoints';
import type { DiscoveryColumn, ImportFormat, ImportResult, SortDir, TimeseriesMetric } from '../api/types';
import { useDiscovery } from '../api/use-discovery';
import { DataTable } from '../components/data-table';
import { FieldError, FormError } from '../components/field-error';
import { PeriodPicker } from '../components/period-picker';
import { TablePending } from '../components/table-pending';
import { TimeChart } from '../components/time-chart';
import { explorerSearchParams } from '../lib/explorer-state';
import { formatDay, formatInteger, formatNumber, formatPercent } from '../lib/format';
import { useWebsite } from '../session';

const PER_PAGE = 25;
const SEARCH_TABLES = ['search-pages', 'search-keywords'] as const;
/** A row's height in rem: a page row shows its URL and its title under it, a keyword row one line. */
const PAGE_ROW_REM = 4.5;
const KEYWORD_ROW_REM = 2.1;

const METRICS: { metric: TimeseriesMetric; title: string; format: (v: number) => string; invert?: boolean; integer?: boolean }[] = [
  { metric: 'clicks', title: 'Clicks', format: (v) => formatInteger(v), integer: true },
  { metric: 'impressions', title: 'Impressions', format: (v) => formatInteger(v), integer: true },
  { metric: 'ctr', title: 'Click-through rate', format: (v) => formatPercent(v) },
  { metric: 'position', title: 'Average position (1 is the top)', format: (v) => formatNumber(v), invert: true },
];

/** Search performance: clicks, impressions, CTR and position over time; the pages and keywords tables; a Search Console CSV import (manager). */
export default function SearchPage() {
  const { website = '' } = useParams();
  const view = useWebsite();
  const [params, setParams] = useSearchParams();
  const discovery = useDiscovery(website);
  const pagesExplorer = discovery.data?.explorers.find((e) => e.key === 'search-pages');
  const presets = pagesExplorer?.periods.presets ?? [];
  const period = params.get('period') || pagesExplorer?.modes[0]?.defaults.period || '28d';
  const setParam = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) next.delete(key);
      else next.set(key, value);
    }
    setParams(next);
  };

  return (
    <>
      <h1>Search performance</h1>
      <div className="row">
        <PeriodPicker id="period" label="Period" presets={presets} value={period} onChange={(p) => setParam({ period: p, 'pages.page': undefined, 'keywords.page': undefined })} />
      </div>
      <h2>Over time, per day</h2>
      <div className="grid-2">
        {METRICS.map((m) => (
          <MetricChart key={m.metric} website={website} period={period} {...m} />
        ))}
      </div>
      {discovery.error ? <p className="form-error">{discovery.error.message}</p> : null}
      <div className="grid-2">
        {SEARCH_TABLES.map((key) => {
          const explorer = discovery.data?.explorers.find((e) => e.key === key);
          // Before discovery answers, the table's place is kept; a website whose discovery lacks the explorer shows none.
          return discovery.data && !explorer ? null : <SearchTable key={key} website={website} explorerKey={key} columns={explorer?.modes[0]?.columns} period={period} params={params} setParam={setParam} />;
        })}
      </div>
      {view && view.role !== 'readonly' ? <ImportForm website={website} /> : null}
    </>
  );
}

function MetricChart({ website, period, metric, title, format, invert, integer }: { website: string; period: string; metric: TimeseriesMetric; title: string; format: (v: number) => string; invert?: boolean; integer?: boolean }) {
  const series = useQuery({
    queryKey: ['timeseries', website, period, metric],
    queryFn: ({ signal }) => api.insights.timeseries(website, { metric, period }, signal),
  });
  if (series.error) return <p className="form-error">{title}: {series.error.message}</p>;
  return <TimeChart title={title} series={series.data?.data.series} format={format} height={180} invert={invert} integer={integer} />;
}

interface SearchTableProps {
  website: string;
  explorerKey: (typeof SEARCH_TABLES)[number];
  /** Discovery's columns of the explorer; undefined until discovery answers (the rows are asked for meanwhile). */
  columns: DiscoveryColumn[] | undefined;
  period: string;
  params: URLSearchParams;
  setParam: (changes: Record<string, string | undefined>) => void;
}

function SearchTable({ website, explorerKey, columns, period, params, setParam }: SearchTableProps) {
  const prefix = explorerKey === 'search-pages' ? 'pages' : 'keywords';
  const sort = params.get(`${prefix}.sort`) ?? undefined;
  const dir = params.get(`${prefix}.dir`);
  const sortDir: SortDir | undefined = dir === 'asc' || dir === 'desc' ? dir : undefined;
  const page = Number(params.get(`${prefix}.page`)) || 1;
  const body = { period, perPage: PER_PAGE, ...(sort ? { sort, sortDir } : {}), ...(page > 1 ? { page } : {}) };
  const result = useQuery({
    queryKey: ['query', website, explorerKey, body],
    queryFn: ({ signal }) => api.explorer.query(website, explorerKey, body, signal),
    placeholderData: keepPreviousData,
  });
  const meta = result.data?.meta;
  const shown = (meta?.columns ?? []).map((k) => columns?.find((c) => c.key === k)).filter((c): c is DiscoveryColumn => !!c);
  const title = explorerKey === 'search-pages' ? 'Pages' : 'Keywords';
  return (
    <section aria-labelledby={`${prefix}-title`}>
      <h2 id={`${prefix}-title`}>{title}</h2>
      {result.error ? <p className="form-error">{result.error.message}</p> : null}
      {result.data && columns ? (
        <DataTable
          caption={`Search performance per ${explorerKey === 'search-pages' ? 'page' : 'keyword'}`}
          columns={shown}
          rows={result.data.data}
          sort={meta?.sort}
          sortDir={meta?.sortDir}
          onSort={(column) => setParam({ [`${prefix}.sort`]: column, [`${prefix}.dir`]: meta?.sort === column && meta.sortDir === 'desc' ? 'asc' : 'desc', [`${prefix}.page`]: undefined })}
        />
      ) : result.error ? null : (
        <TablePending rows={PER_PAGE} rowHeight={explorerKey === 'search-pages' ? PAGE_ROW_REM : KEYWORD_ROW_REM} />
      )}
      {meta ? (
        <nav className="pager" aria-label={`Pages of ${title.toLowerCase()}`}>
          <button type="button" disabled={meta.page <= 1} onClick={() => setParam({ [`${prefix}.page`]: String(meta.page - 1) })}>
            Previous
          </button>
          <span>
            Page {formatInteger(meta.page)} of {formatInteger(Math.max(meta.totalPages, 1))} · {formatInteger(meta.total)} rows
          </span>
          <button type="button" disabled={meta.page >= meta.totalPages} onClick={() => setParam({ [`${prefix}.page`]: String(meta.page + 1) })}>
            Next
          </button>
          <Link to={`/w/${encodeURIComponent(website)}/explorer?${explorerSearchParams({ explorer: explorerKey, period, filters: [], sort: meta.sort, sortDir: meta.sortDir }).toString()}`}>In the explorer</Link>
        </nav>
      ) : null}
    </section>
  );
}

const IMPORT_CONTROLS = ['format', 'date', 'content'] as const;
/** The API's limit on `content` (docs/public-api.md, "Search performance"). */
const IMPORT_MAX_BYTES = 15_000_000;

function ImportForm({ website }: { website: string }) {
  const client = useQueryClient();
  const [format, setFormat] = useState<ImportFormat>('pages_csv');
  const [date, setDate] = useState('');
  const [content, setContent] = useState<string>();
  const [fileName, setFileName] = useState<string>();
  const run = useMutation<ImportResult, ApiError>({
    mutationFn: () => api.searchPerformance.import(website, { format, date, ...(content !== undefined ? { content } : {}) }),
    onSuccess: () => void client.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'query' || q.queryKey[0] === 'timeseries' }),
  });
  const [fileProblem, setFileProblem] = useState<string>();
  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setFileName(file?.name);
    // Not read, nor sent, when the API would refuse it for its size anyway.
    if (file && file.size > IMPORT_MAX_BYTES) {
      setFileProblem(`That file is larger than ${IMPORT_MAX_BYTES / 1_000_000} MB, more than one day's Search Console table: choose the CSV of one day.`);
      setContent(undefined);
      return;
    }
    setFileProblem(undefined);
    setContent(file ? await file.text() : undefined);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    run.mutate();
  };
  const invalid = (field: string) => run.error?.field === field || undefined;
  return (
    <section aria-labelledby="import-title">
      <h2 id="import-title">Import from Search Console</h2>
      <p className="muted small">
        A Search Console “Pages” or “Queries” table exported as CSV covers one day: give that day. Importing a day again replaces it.
      </p>
      <form onSubmit={submit} className="row">
        <div className="control">
          <label htmlFor="import-format">Table</label>
          <select id="import-format" value={format} onChange={(e) => setFormat(e.target.value as ImportFormat)} aria-invalid={invalid('format')}>
            <option value="pages_csv">Pages</option>
            <option value="queries_csv">Queries</option>
          </select>
          <FieldError error={run.error} control="format" controls={IMPORT_CONTROLS} />
        </div>
        <div className="control">
          <label htmlFor="import-date">Day</label>
          <input id="import-date" type="date" value={date} onChange={(e) => setDate(e.target.value)} aria-invalid={invalid('date')} required />
          <FieldError error={run.error} control="date" controls={IMPORT_CONTROLS} />
        </div>
        <div className="control">
          <label htmlFor="import-file">CSV file</label>
          <input id="import-file" type="file" accept=".csv,text/csv" onChange={(e) => void pick(e)} aria-invalid={invalid('content') ?? (fileProblem ? true : undefined)} required />
          {fileProblem ? (
            <p className="field-error" role="alert">
              {fileProblem}
            </p>
          ) : (
            <FieldError error={run.error} control="content" controls={IMPORT_CONTROLS} />
          )}
        </div>
        <div className="control">
          <span aria-hidden="true">&nbsp;</span>
          <button type="submit" className="primary" disabled={run.isPending || content === undefined}>
            {run.isPending ? 'Importing…' : 'Import'}
          </button>
        </div>
      </form>
      <FormError error={run.error} controls={IMPORT_CONTROLS} />
      {run.isSuccess ? (
        <p className="notice" role="status">
          Imported {fileName}:{' '}
          {run.data.days.map((d) => `${formatDay(d.date)} (${d.grain}): ${formatInteger(d.rows)} rows`).join('; ')}.
        </p>
      ) : null}
    </section>
  );
}

import { useCallback, useMemo, useState, type FormEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router';
import type { ApiError } from '../api/api-error';
import { api } from '../api/endpoints';
import type { DiscoveryColumn, DiscoveryMode, RendersQueryBody, RendersTimeseriesBody, Row } from '../api/types';
import { DataTable } from '../components/data-table';
import { ExportButton, ExportOutcome, useExportStart } from '../components/export-status';
import { Pager, PerPageSelect } from '../components/pager';
import { PeriodPicker } from '../components/period-picker';
import { Time } from '../components/time';
import { TimeChart } from '../components/time-chart';
import { formatDurationShort, formatInteger, formatMs } from '../lib/format';
import { seoPagePath } from '../lib/seo';
import {
  cacheLookupPath,
  nextRendersSort,
  orderReasons,
  OUTCOME_CLASSES,
  OUTCOME_LABELS,
  outcomeClassOf,
  parseRendersState,
  reasonsBody,
  REASONS_SHOW,
  rendersBody,
  rendersErrorControl,
  rendersExportBody,
  rendersSearchParams,
  rendersSeries,
  rendersTimeseriesBody,
  receiptPath,
  type ReasonsShow,
  type RendersControl,
  type RendersState,
} from '../lib/renders-state';

const DEFAULT_PERIOD = '7d';
const FALLBACK_PRESETS = ['24h', '7d', '14d', '28d', '30d', '90d'];
const TRIGGERS: { value: string; label: string }[] = [
  { value: 'recache_high', label: 'Recache, high priority' },
  { value: 'recache_normal', label: 'Recache, normal priority' },
  { value: 'autorecache', label: 'Autorecache (expiry)' },
  { value: 'sitemap', label: 'Sitemap recache' },
  { value: 'edge_miss', label: 'Edge miss (a bot waited)' },
];
const TRIGGER_LABELS: Record<string, string> = Object.fromEntries(TRIGGERS.map((t) => [t.value, t.label]));
const countFormat = (v: number) => formatInteger(v);
const msFormat = (v: number) => formatDurationShort(v);

/** Which of the answers' refusals is about this control (the first that is). */
function errorAt(control: RendersControl, refusals: { error: ApiError | null; body: RendersQueryBody | RendersTimeseriesBody; classControl?: RendersControl }[]): ApiError | undefined {
  return refusals.find((r) => r.error && rendersErrorControl(r.body, r.error.field, r.classControl) === control)?.error ?? undefined;
}

function ControlError({ error, id }: { error: ApiError | undefined; id?: string }) {
  return error ? (
    <p className="field-error" role="alert" id={id}>
      {error.message}
    </p>
  ) : null;
}

/**
 * Render history: every render and origin fetch of the website's pages.
 * Failures first (grouped by outcome and reason), renders and render time
 * over time, then the single renders (filters, sort, paging, CSV export
 * through the account's one export slot). The view's state is the URL.
 */
export default function RendersPage() {
  const { website = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => parseRendersState(params), [params]);
  const discovery = useQuery({ queryKey: ['renders-discovery', website], queryFn: ({ signal }) => api.renders.discover(website, signal), staleTime: 10 * 60_000 });
  const update = useCallback((change: Partial<RendersState>) => setParams(rendersSearchParams({ ...state, page: undefined, ...change })), [state, setParams]);

  const perPageMax = discovery.data?.limits.perPageMax;
  const reasonsQuery = useMemo(() => reasonsBody(state, perPageMax), [state, perPageMax]);
  const rendersQuery = useMemo(() => rendersBody(state), [state]);
  const seriesQuery = useMemo(() => rendersTimeseriesBody(state), [state]);
  const reasons = useQuery({ queryKey: ['renders-reasons', website, reasonsQuery], queryFn: ({ signal }) => api.renders.query(website, reasonsQuery, signal), placeholderData: keepPreviousData, retry: false });
  const renders = useQuery({ queryKey: ['renders-rows', website, rendersQuery], queryFn: ({ signal }) => api.renders.query(website, rendersQuery, signal), placeholderData: keepPreviousData, retry: false });
  const series = useQuery({ queryKey: ['renders-series', website, seriesQuery], queryFn: ({ signal }) => api.renders.timeseries(website, seriesQuery, signal), retry: false });

  const refusals = [
    { error: renders.error, body: rendersQuery },
    { error: reasons.error, body: reasonsQuery, classControl: 'show' as const },
    { error: series.error, body: seriesQuery },
  ];
  const renderMode: DiscoveryMode | undefined = discovery.data?.modes.find((m) => m.key === 'renders');
  const presets = discovery.data?.periods.presets ?? FALLBACK_PRESETS;
  const triggerOptions = discovery.data?.modes.flatMap((m) => m.filters).find((f) => f.field === 'trigger')?.options ?? TRIGGERS;
  const period = state.period ?? reasons.data?.meta.period ?? renderMode?.defaults.period ?? DEFAULT_PERIOD;
  const [urlText, setUrlText] = useState(state.url ?? '');
  const [urlFor, setUrlFor] = useState(state.url);
  if (urlFor !== state.url) {
    // The URL filter changed from outside the box (back button, a link): the box follows.
    setUrlFor(state.url);
    setUrlText(state.url ?? '');
  }
  const applyUrl = (event: FormEvent) => {
    event.preventDefault();
    update({ url: urlText.trim() || undefined });
  };
  const pageError = refusals.find((r) => r.error && !rendersErrorControl(r.body, r.error.field, r.classControl))?.error;

  return (
    <>
      <h1>Renders</h1>
      <p className="muted">
        Every render and origin fetch of this website's pages (recaches, sitemap recaches, autorecaches and edge misses): what became of the cached page and why. A render that comes back blank, times out, looks like a soft 404 or is much
        smaller than the page before keeps the old page, and the reason says which rule kept it.
      </p>
      {discovery.error ? (
        <p className="form-error" role="alert">
          {discovery.error.message}
        </p>
      ) : null}
      <form className="row" onSubmit={applyUrl} aria-label="Renders filters">
        <div>
          <PeriodPicker id="period" label="Period" presets={presets} value={period} onChange={(p) => update({ period: p })} invalid={!!errorAt('period', refusals) || undefined} describedBy="period-error" />
          <ControlError error={errorAt('period', refusals)} id="period-error" />
        </div>
        <div className="control">
          <label htmlFor="trigger">Trigger</label>
          <select id="trigger" value={state.trigger ?? ''} onChange={(e) => update({ trigger: e.target.value || undefined })} aria-invalid={!!errorAt('trigger', refusals) || undefined}>
            <option value="">All triggers</option>
            {triggerOptions.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          <ControlError error={errorAt('trigger', refusals)} />
        </div>
        <div className="control">
          <label htmlFor="url-contains">URL contains</label>
          <input id="url-contains" value={urlText} onChange={(e) => setUrlText(e.target.value)} spellCheck={false} aria-invalid={!!errorAt('url', refusals) || undefined} />
          <ControlError error={errorAt('url', refusals)} />
        </div>
        <button type="submit">Apply</button>
      </form>
      {pageError ? (
        <p className="form-error" role="alert">
          {pageError.message}
        </p>
      ) : null}

      <section aria-labelledby="reasons-title">
        <div className="row">
          <h2 id="reasons-title">{state.show === 'all' || state.show === 'stored' ? 'Renders by outcome and reason' : 'Failures by reason'}</h2>
          <div className="control">
            <label htmlFor="show">Outcomes</label>
            <select id="show" value={state.show} onChange={(e) => update({ show: e.target.value as ReasonsShow })} aria-invalid={!!errorAt('show', refusals) || undefined}>
              {REASONS_SHOW.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          </div>
          {reasons.data ? (
            <span className="muted small">
              <Time iso={reasons.data.meta.window.start} /> to <Time iso={reasons.data.meta.window.end} />
            </span>
          ) : null}
        </div>
        <ControlError error={errorAt('show', refusals)} />
        {reasons.data ? (
          <ReasonsTable rows={reasons.data.data} state={state} onDrill={(outcome, reason) => update({ outcome, reason, outcomeClass: undefined })} />
        ) : reasons.isPending ? (
          <p role="status">Loading…</p>
        ) : null}
      </section>

      <section aria-labelledby="time-title">
        <h2 id="time-title">Over time{series.data ? (series.data.meta.interval === 'hour' ? ', per hour' : ', per day') : ''}</h2>
        {series.data ? <RenderCharts points={series.data.points} /> : series.isPending ? <p role="status">Loading…</p> : null}
      </section>

      <section aria-labelledby="renders-title">
        <h2 id="renders-title">Single renders</h2>
        <div className="row">
          <div className="control">
            <label htmlFor="outcome-class">Outcome</label>
            <select id="outcome-class" value={state.outcomeClass ?? ''} onChange={(e) => update({ outcomeClass: (e.target.value || undefined) as RendersState['outcomeClass'], outcome: undefined, reason: undefined })} aria-invalid={!!errorAt('outcomeClass', refusals) || undefined}>
              <option value="">All outcomes</option>
              {OUTCOME_CLASSES.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
            <ControlError error={errorAt('outcomeClass', refusals)} />
          </div>
          {state.outcome ? (
            <p className="card" aria-live="polite">
              Only <strong>{OUTCOME_LABELS[state.outcome] ?? state.outcome}</strong>
              {state.reason !== undefined ? <>, reason “{state.reason || 'none'}”</> : null}{' '}
              <button type="button" className="link" onClick={() => update({ outcome: undefined, reason: undefined })}>
                Show all renders
              </button>
            </p>
          ) : null}
        </div>
        <ControlError error={errorAt('outcome', refusals)} />
        <SingleRenders website={website} state={state} columns={renderMode?.columns ?? []} result={renders.data} fetching={renders.isFetching} pending={renders.isPending && !renders.error} onUpdate={update} perPageMax={perPageMax ?? 500} errorAt={(c) => errorAt(c, refusals)} />
      </section>
    </>
  );
}

function ReasonsTable({ rows, state, onDrill }: { rows: Row[]; state: RendersState; onDrill: (outcome: string, reason: string) => void }) {
  const ordered = useMemo(() => orderReasons(rows), [rows]);
  if (ordered.length === 0) {
    return <p data-testid="no-reasons">{state.show === 'problems' ? 'No failed render and no page kept in this window: every render was stored.' : 'No renders in this window with these filters.'}</p>;
  }
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Renders grouped by outcome and reason, failures first</caption>
        <thead>
          <tr>
            <th scope="col">Outcome</th>
            <th scope="col">Reason</th>
            <th scope="col" className="num">
              Renders
            </th>
            <th scope="col" className="num">
              Pages
            </th>
            <th scope="col" className="num">
              Average render time
            </th>
            <th scope="col">Last rendered</th>
            <th scope="col">
              <span className="visually-hidden">Drill down</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {ordered.map((row) => {
            const outcome = String(row.outcome ?? '');
            const reason = row.reason === null || row.reason === undefined ? '' : String(row.reason);
            const selected = state.outcome === outcome && state.reason === reason;
            return (
              <tr key={`${outcome} ${reason}`} className={selected ? 'selected' : undefined} data-testid="reason-row">
                <td>
                  <span className={`outcome-${outcomeClassOf(outcome)}`}>{OUTCOME_LABELS[outcome] ?? outcome}</span>
                </td>
                <td className="url">{reason || <span className="muted">–</span>}</td>
                <td className="num">{formatInteger(row.renders as number)}</td>
                <td className="num">{formatInteger(row.pages as number)}</td>
                <td className="num">{formatMs(row.avg_render_ms as number | null)}</td>
                <td>{typeof row.last_rendered_at === 'string' ? <Time iso={row.last_rendered_at} /> : '–'}</td>
                <td>
                  <button type="button" onClick={() => onDrill(outcome, reason)} aria-pressed={selected} aria-label={`Show renders: ${OUTCOME_LABELS[outcome] ?? outcome}${reason ? `, ${reason}` : ''}`}>
                    Show renders
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function RenderCharts({ points }: { points: Parameters<typeof rendersSeries>[0] }) {
  const { outcomes, renderTime } = useMemo(() => rendersSeries(points), [points]);
  return (
    <div className="grid-2">
      <TimeChart title="Renders by outcome (failed, kept the old page, stored)" series={outcomes} format={countFormat} integer />
      <TimeChart title="Render time, p50 and p95" series={renderTime} format={msFormat} />
    </div>
  );
}

interface SingleRendersProps {
  website: string;
  state: RendersState;
  columns: DiscoveryColumn[];
  result: { data: Row[]; meta: { page: number; perPage: number; total: number; totalPages: number; sort: string; sortDir: 'asc' | 'desc'; columns: string[] } } | undefined;
  fetching: boolean;
  pending: boolean;
  perPageMax: number;
  onUpdate: (change: Partial<RendersState>) => void;
  errorAt: (control: RendersControl) => ApiError | undefined;
}

function SingleRenders({ website, state, columns, result, fetching, pending, perPageMax, onUpdate, errorAt }: SingleRendersProps) {
  const exporting = useExportStart(() => api.renders.export(website, rendersExportBody(state)));
  const meta = result?.meta;
  // A page leads to what is cached for it now (its lookup on the Cache page).
  const lookupHref = useCallback((url: string) => cacheLookupPath(website, url), [website]);
  // And to what it says to bots (its facts, issues and changes).
  const seoHref = useCallback((url: string) => seoPagePath(website, url), [website]);
  // A render of a recache's entry leads to that recache's receipt (the Cache page follows it).
  const receiptHref = useCallback((receiptId: string) => receiptPath(website, receiptId), [website]);
  const sortBy = useCallback((column: string) => onUpdate(nextRendersSort(column, { sort: meta?.sort, sortDir: meta?.sortDir })), [onUpdate, meta?.sort, meta?.sortDir]);
  // Outcomes and triggers in words (the API's values stay in the export and the filters).
  const rows = useMemo(
    () =>
      result?.data.map((row) => ({
        ...row,
        outcome: OUTCOME_LABELS[String(row.outcome)] ?? row.outcome,
        trigger: TRIGGER_LABELS[String(row.trigger)] ?? row.trigger,
        // A render that failed before the page answered records status 0: no status, not a status.
        status_code: row.status_code === 0 ? null : row.status_code,
      })) ?? [],
    [result?.data],
  );
  const shown = useMemo(() => (meta?.columns ?? []).map((key) => columns.find((c) => c.key === key)).filter((c): c is DiscoveryColumn => !!c), [meta?.columns, columns]);
  const perPageChoices = [...new Set([25, 50, 100, 250, 500, meta?.perPage ?? 100].filter((n) => n <= perPageMax))].sort((a, b) => a - b);
  return (
    <>
      <div className="pager">
        {meta ? <span>{meta.total === 1 ? '1 render' : `${formatInteger(meta.total)} renders`}</span> : null}
        {fetching ? (
          <span className="muted small" role="status">
            Loading…
          </span>
        ) : null}
        <span className="spacer" />
        <ExportButton website={website} exporting={exporting} />
      </div>
      <ExportOutcome website={website} exporting={exporting} />
      <ControlError error={errorAt('sort')} />
      {result && shown.length > 0 ? (
        <DataTable caption="Single renders" columns={shown} rows={rows} sort={meta?.sort} sortDir={meta?.sortDir} onSort={sortBy} pageHref={lookupHref} seoHref={seoHref} receiptHref={receiptHref} />
      ) : pending ? (
        <p className="page-status" role="status">
          Running the query…
        </p>
      ) : null}
      {meta ? (
        <Pager label="Pages of renders" meta={meta} onPage={(page) => onUpdate({ page })} withTotal={false}>
          <PerPageSelect value={state.perPage ?? meta.perPage} choices={perPageChoices} current={meta.perPage} invalid={!!errorAt('perPage')} onChange={(perPage) => onUpdate({ perPage })} />
        </Pager>
      ) : null}
      <ControlError error={errorAt('perPage')} />
      <ControlError error={errorAt('page')} />
    </>
  );
}

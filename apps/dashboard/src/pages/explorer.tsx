import { useCallback, useMemo } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router';
import { ApiError } from '../api/api-error';
import { api } from '../api/endpoints';
import { useDiscovery } from '../api/use-discovery';
import type { CompCategory, DiscoveryColumn } from '../api/types';
import { DataTable } from '../components/data-table';
import { ExportButton, ExportOutcome, useExportStart } from '../components/export-status';
import { FieldError, FormError } from '../components/field-error';
import { Pager, PerPageSelect } from '../components/pager';
import { PeriodPicker } from '../components/period-picker';
import { Time } from '../components/time';
import { errorTarget } from '../lib/error-fields';
import {
  chosenExplorer,
  COMP_CATEGORIES,
  chosenMode,
  explorerControls,
  explorerSearchParams,
  exportBody,
  nextSort,
  parseExplorerState,
  queryBody,
  type ExplorerState,
} from '../lib/explorer-state';
import { formatInteger } from '../lib/format';
import { markRowsArrived, markRowsRendered } from '../lib/perf-marks';
import { ColumnChooser } from './explorer-parts/column-chooser';
import { FilterEditor } from './explorer-parts/filter-editor';

const COMP_CATEGORY_LABELS: Record<CompCategory, string> = {
  new: 'New: in this period only',
  returning: 'Returning: in both periods',
  lost: 'Lost: in the comparison period only',
};

/** The discovery columns of the keys the rows carry, in that order (memoised: the table keeps its column definitions while they stay the same). */
const shownColumnsCache = new WeakMap<DiscoveryColumn[], Map<string, DiscoveryColumn[]>>();
function shownColumnsOf(keys: string[], columns: DiscoveryColumn[]): DiscoveryColumn[] {
  const byKeys = shownColumnsCache.get(columns) ?? new Map<string, DiscoveryColumn[]>();
  shownColumnsCache.set(columns, byKeys);
  const id = keys.join(',');
  let shown = byKeys.get(id);
  if (!shown) {
    shown = keys.map((key) => columns.find((c) => c.key === key)).filter((c): c is DiscoveryColumn => !!c);
    byKeys.set(id, shown);
  }
  return shown;
}

const titleOf = (key: string) => key.replace(/[-_]/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** The Data Explorer: every explorer, mode, column, filter and period as discovery describes them; the view's state is the URL. */
export default function ExplorerPage() {
  const { website = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => parseExplorerState(params), [params]);
  const discovery = useDiscovery(website);
  const explorer = discovery.data ? chosenExplorer(discovery.data, state) : undefined;
  const mode = explorer ? chosenMode(explorer, state) : undefined;
  const body = useMemo(() => queryBody(state, mode), [state, mode]);
  const results = useQuery({
    queryKey: ['query', website, explorer?.key, body],
    queryFn: async ({ signal }) => {
      const result = await api.explorer.query(website, explorer!.key, body, signal);
      markRowsArrived();
      return result;
    },
    enabled: !!explorer,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const exporting = useExportStart(() => api.exports.start(website, explorer!.key, exportBody(state, mode)));

  const update = useCallback(
    (change: Partial<ExplorerState>) => {
      const next = { ...state, page: undefined, ...change };
      setParams(explorerSearchParams(next));
    },
    [state, setParams],
  );

  const currentSort = results.data?.meta ?? mode?.defaults;
  // Stable, so the table (memoised) re-renders for new rows only, not for every change of the page around it.
  const sortBy = useCallback(
    (column: string) => update(nextSort(column, { sort: currentSort?.sort ?? '', sortDir: currentSort?.sortDir ?? 'desc' })),
    [update, currentSort?.sort, currentSort?.sortDir],
  );

  if (discovery.isPending) return <p className="page-status" role="status">Loading the explorers…</p>;
  if (discovery.error) return <p className="form-error" role="alert">{discovery.error.message}</p>;
  if (!explorer || !mode) return <p>This website has no explorers.</p>;

  const error = results.error instanceof ApiError ? results.error : null;
  const controls = explorerControls(state.filters.length);
  const meta = results.data?.meta;
  const invalid = (control: string) => errorTarget(error?.field, controls) === control || undefined;
  const modeColumns = mode.columns;
  const chosenColumns = state.columns ?? meta?.columns ?? mode.defaults.columns;
  const shownColumns = shownColumnsOf(meta?.columns ?? chosenColumns, modeColumns);
  const limits = explorer.limits ?? discovery.data.limits;
  const perPageChoices = [...new Set([25, 50, 100, 250, 500, limits.perPageDefault].filter((n) => n <= limits.perPageMax))].sort((a, b) => a - b);
  const hasComparison = explorer.features.comparePeriod && (!!meta?.compWindow || !!state.compPeriod);
  const hasCategory = explorer.features.comparisonCategories && (meta?.compCategory !== undefined || !!state.compCategory);

  return (
    <>
      <h1>Data Explorer</h1>
      <section aria-label="Query" className="stack">
        <div className="row">
          <div className="control">
            <label htmlFor="explorer">Explorer</label>
            <select
              id="explorer"
              value={explorer.key}
              aria-invalid={invalid('explorer')}
              onChange={(e) => update({ explorer: e.target.value, mode: undefined, columns: undefined, filters: [], sort: undefined, sortDir: undefined, compPeriod: undefined, compCategory: undefined, period: undefined })}
            >
              {discovery.data.explorers.map((e) => (
                <option key={e.key} value={e.key}>
                  {titleOf(e.key)}
                </option>
              ))}
            </select>
          </div>
          {explorer.modes.length > 1 ? (
            <div className="control">
              <label htmlFor="mode">Mode</label>
              <select
                id="mode"
                value={mode.key}
                aria-invalid={invalid('mode')}
                onChange={(e) => update({ mode: e.target.value, columns: undefined, sort: undefined, sortDir: undefined, compPeriod: undefined, compCategory: undefined, filters: state.filters.filter((f) => explorer.modes.find((m) => m.key === e.target.value)?.filters.some((d) => d.field === f.field)) })}
              >
                {explorer.modes.map((m) => (
                  <option key={m.key} value={m.key}>
                    {titleOf(m.key)}
                  </option>
                ))}
              </select>
              <FieldError error={error} control="mode" controls={controls} />
            </div>
          ) : null}
          <div>
            <PeriodPicker id="period" label="Period" presets={explorer.periods.presets} value={state.period ?? meta?.period ?? mode.defaults.period} onChange={(period) => update({ period })} invalid={invalid('period')} describedBy="period-error" />
            <FieldError error={error} control="period" controls={controls} id="period-error" />
          </div>
          {hasComparison ? (
            <div>
              <PeriodPicker
                id="compPeriod"
                label="Compared with"
                presets={explorer.periods.presets.filter((p) => p.endsWith('d'))}
                value={state.compPeriod}
                emptyLabel="The period just before"
                onChange={(compPeriod) => update({ compPeriod })}
                invalid={invalid('compPeriod')}
              />
              <FieldError error={error} control="compPeriod" controls={controls} />
            </div>
          ) : null}
          {hasCategory ? (
            <div className="control">
              <label htmlFor="compCategory">Pages</label>
              <select id="compCategory" value={state.compCategory ?? meta?.compCategory ?? 'new'} aria-invalid={invalid('compCategory')} onChange={(e) => update({ compCategory: COMP_CATEGORIES.find((c) => c === e.target.value) })}>
                {COMP_CATEGORIES.map((c) => (
                  <option key={c} value={c}>
                    {COMP_CATEGORY_LABELS[c]}
                  </option>
                ))}
              </select>
              <FieldError error={error} control="compCategory" controls={controls} />
            </div>
          ) : null}
        </div>
        <ColumnChooser columns={modeColumns} chosen={chosenColumns} onChange={(columns) => update({ columns })} invalid={invalid('columns')} />
        <FieldError error={error} control="columns" controls={controls} />
        <FilterEditor definitions={mode.filters} applied={state.filters} onApply={(filters) => update({ filters })} error={error} controls={controls} />
        <FieldError error={error} control="sort" controls={controls} />
        <FieldError error={error} control="sortDir" controls={controls} />
        <FormError error={error} controls={controls} />
      </section>

      <section aria-label="Results">
        <div className="pager">
          {meta ? (
            <span>
              {formatInteger(meta.total)} rows · <Time iso={meta.window.start} /> to <Time iso={meta.window.end} />
              {meta.compWindow ? (
                <span className="muted">
                  {' '}
                  (compared with <Time iso={meta.compWindow.start} /> to <Time iso={meta.compWindow.end} />)
                </span>
              ) : null}
            </span>
          ) : null}
          {results.isFetching ? (
            <span className="muted small" role="status">
              Loading…
            </span>
          ) : null}
          <span className="spacer" />
          <ExportButton website={website} exporting={exporting} />
        </div>
        <ExportOutcome website={website} exporting={exporting} />
        {results.data ? (
          <DataTable
            caption={`${titleOf(explorer.key)} rows`}
            columns={shownColumns}
            rows={results.data.data}
            sort={meta?.sort}
            sortDir={meta?.sortDir}
            onSort={sortBy}
            onRendered={markRowsRendered}
          />
        ) : results.isPending && !error ? (
          <p className="page-status" role="status">
            Running the query…
          </p>
        ) : null}
        {meta ? (
          <Pager label="Pages of rows" meta={meta} onPage={(page) => update({ page })} withTotal={false}>
            <PerPageSelect value={state.perPage ?? meta.perPage} choices={perPageChoices} current={meta.perPage} invalid={invalid('perPage')} onChange={(perPage) => update({ perPage })} />
          </Pager>
        ) : null}
        <FieldError error={error} control="perPage" controls={controls} />
        <FieldError error={error} control="page" controls={controls} />
      </section>
    </>
  );
}

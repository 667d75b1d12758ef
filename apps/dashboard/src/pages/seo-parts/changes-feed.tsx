import { useQuery, keepPreviousData } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../api/endpoints';
import type { IssueSeverity, Row } from '../../api/types';
import { FieldError } from '../../components/field-error';
import { Pager } from '../../components/pager';
import { Time } from '../../components/time';
import { seoExplorerPath, seoPagePath, SEVERITIES, SEVERITY_TEXT } from '../../lib/seo';
import { pathOf } from '../ai-agents-parts/use-ai-crawlers';

export type FeedOrder = 'critical' | 'newest';
const PER_PAGE = 50;
const COLUMNS = ['url', 'dimension', 'changed_at', 'field', 'before', 'after', 'severity'];

export interface FeedState {
  severity?: IssueSeverity;
  order: FeedOrder;
  page: number;
}

/** The latest changes (page_changes), critical first or newest first, optionally of one severity; each page opens its SEO view. */
export function ChangesFeed({ website, period, state, onChange }: { website: string; period: string; state: FeedState; onChange: (next: FeedState) => void }) {
  const filters = state.severity ? [{ field: 'severity', op: 'eq', val: state.severity }] : [];
  const sort = state.order === 'critical' ? { sort: 'severity', sortDir: 'desc' as const } : { sort: 'changed_at', sortDir: 'desc' as const };
  const changes = useQuery({
    queryKey: ['seo-changes', website, period, state],
    queryFn: ({ signal }) => api.explorer.query(website, 'page_changes', { period, columns: COLUMNS, filters, ...sort, page: state.page, perPage: PER_PAGE }, signal),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="seo-changes-heading">
      <h2 id="seo-changes-heading">Changes</h2>
      <div className="row">
        <div className="control">
          <label htmlFor="changes-severity">Severity</label>
          <select id="changes-severity" value={state.severity ?? ''} onChange={(e) => onChange({ ...state, severity: SEVERITIES.find((s) => s === e.target.value), page: 1 })}>
            <option value="">All</option>
            {SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {SEVERITY_TEXT[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="control">
          <label htmlFor="changes-order">Order</label>
          <select id="changes-order" value={state.order} onChange={(e) => onChange({ ...state, order: e.target.value === 'newest' ? 'newest' : 'critical', page: 1 })}>
            <option value="critical">Most severe first</option>
            <option value="newest">Newest first</option>
          </select>
        </div>
        <Link className="small" to={seoExplorerPath(website, 'page_changes', period, filters, sort)}>
          These changes in the Data Explorer
        </Link>
      </div>
      <FieldError error={changes.error} control="filters" controls={['filters']} />
      {changes.error && changes.error.field !== 'filters' ? (
        <p className="form-error" role="alert">
          {changes.error.message}
        </p>
      ) : null}
      {changes.data ? (
        <>
          <ChangesTable website={website} period={period} rows={changes.data.data} caption={`Changes in the period, ${state.order === 'critical' ? 'most severe first' : 'newest first'}`} />
          {changes.data.meta.totalPages > 1 ? <Pager label="Changes pages" meta={changes.data.meta} onPage={(page) => onChange({ ...state, page })} /> : null}
        </>
      ) : changes.isPending ? (
        <p className="page-status" role="status">
          Loading…
        </p>
      ) : null}
    </section>
  );
}

/** Changes as rows: when, the page (to its SEO view) unless the table is one page's, the field, before → after, severity. */
export function ChangesTable({ website, period, rows, caption, withPage = true }: { website: string; period: string; rows: Row[]; caption: string; withPage?: boolean }) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Changed</th>
            {withPage ? <th scope="col">Page</th> : null}
            <th scope="col">Dimension</th>
            <th scope="col">Field</th>
            <th scope="col">Before → after</th>
            <th scope="col">Severity</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const severity = String(row.severity) as IssueSeverity;
            return (
              <tr key={String(row._rowId)}>
                <td>{typeof row.changed_at === 'string' ? <Time iso={row.changed_at} /> : null}</td>
                {withPage ? (
                  <td className="url">
                    <Link to={seoPagePath(website, String(row.url), period)} title={String(row.url)}>
                      {pathOf(String(row.url))}
                    </Link>
                  </td>
                ) : null}
                <td>{String(row.dimension)}</td>
                <td>
                  <code>{String(row.field)}</code>
                </td>
                <td className="url">
                  <ChangeValue value={row.before} /> → <ChangeValue value={row.after} />
                </td>
                <td>
                  <span className={`severity severity-${severity}`}>{SEVERITY_TEXT[severity] ?? severity}</span>
                </td>
              </tr>
            );
          })}
          {rows.length === 0 ? (
            <tr>
              <td colSpan={withPage ? 6 : 5} className="muted">
                No change in this period.
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

function ChangeValue({ value }: { value: unknown }) {
  return value === '' || value === null || value === undefined ? <span className="muted">(none)</span> : <q>{String(value)}</q>;
}

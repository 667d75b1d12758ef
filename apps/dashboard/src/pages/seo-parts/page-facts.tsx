import type { ReactNode } from 'react';
import type { Row } from '../../api/types';
import { Time } from '../../components/time';
import { formatInteger } from '../../lib/format';
import { SEVERITIES, SEVERITY_TEXT, type IssueDescription } from '../../lib/seo';

/** The `pages` explorer's columns the page view shows. */
export const PAGE_COLUMNS = [
  'url', 'dimension', 'title', 'description', 'canonical', 'noindex', 'status_code', 'word_count', 'h1', 'lang', 'structured_data', 'images_without_alt',
  'issues', 'critical_issues', 'urgent', 'last_rendered_at', 'requests', 'last_googlebot_at', 'clicks', 'impressions',
];

/** A fact the page view shows: its `pages` column, its name, and the `page_changes` field that records its changes. */
const FACTS: readonly { column: string; label: string; field?: string }[] = [
  { column: 'status_code', label: 'Status code', field: 'status_code' },
  { column: 'noindex', label: 'Indexing', field: 'noindex' },
  { column: 'title', label: 'Title', field: 'title' },
  { column: 'description', label: 'Meta description', field: 'description' },
  { column: 'canonical', label: 'Canonical URL', field: 'canonical' },
  { column: 'h1', label: 'First h1', field: 'h1' },
  { column: 'lang', label: 'Language', field: 'lang' },
  { column: 'word_count', label: 'Words', field: 'word_count' },
  { column: 'structured_data', label: 'Structured data types', field: 'structured_data' },
  { column: 'images_without_alt', label: 'Images without alt' },
];

const shown = (value: unknown): string => (value === null || value === undefined || value === '' ? '' : typeof value === 'number' ? formatInteger(value) : String(value));

/** `noindex` in words: the `pages` row says who says it (empty when indexable), a change says `true` or `false`. */
const noindexNow = (value: unknown): string => (shown(value) ? `noindex (${shown(value)})` : 'indexable');
const noindexBefore = (value: unknown): string => (value === 'true' ? 'noindex' : value === 'false' ? 'indexable' : shown(value));

/** The latest change of each field for one dimension (changes come newest first). */
function latestChanges(changes: readonly Row[], dimension: unknown): Map<string, Row> {
  const latest = new Map<string, Row>();
  for (const change of changes) if (change.dimension === dimension && !latest.has(String(change.field))) latest.set(String(change.field), change);
  return latest;
}

/** One dimension of a page: facts now against before their latest change, issues, bot hits and clicks in the period. */
export function PageFactsCard({ row, changes, catalog }: { row: Row; changes: readonly Row[]; catalog: Map<string, IssueDescription> }) {
  const dimension = String(row.dimension);
  const latest = latestChanges(changes, row.dimension);
  const issues = String(row.issues ?? '')
    .split(',')
    .map((code) => code.trim())
    .filter(Boolean)
    .sort((a, b) => SEVERITIES.indexOf(catalog.get(a)?.severity ?? 'notice') - SEVERITIES.indexOf(catalog.get(b)?.severity ?? 'notice'));
  const headingId = `seo-dimension-${dimension.replace(/[^a-z0-9_-]/gi, '-')}`;
  return (
    <section className="card seo-dimension" aria-labelledby={headingId}>
      <h2 id={headingId} className="flush">
        {dimension}
      </h2>
      <section aria-label={`Traffic of the ${dimension} dimension`} className="cards">
        <Figure label="Bot requests in the period" value={formatInteger(row.requests as number | null)} />
        <Figure label="Last Googlebot request" value={typeof row.last_googlebot_at === 'string' && row.last_googlebot_at ? <Time iso={row.last_googlebot_at} /> : 'none in the period'} />
        <Figure label="Search clicks (the URL)" value={formatInteger(row.clicks as number | null)} />
        <Figure label="Search impressions (the URL)" value={formatInteger(row.impressions as number | null)} />
        <Figure label="Last render" value={typeof row.last_rendered_at === 'string' ? <Time iso={row.last_rendered_at} /> : '–'} />
      </section>
      {row.urgent === 1 ? (
        <p className="form-error" role="note">
          Urgent: this page says noindex, yet bots requested it in the period.
        </p>
      ) : null}
      <h3>Issues</h3>
      {issues.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul className="issue-list">
          {issues.map((code) => {
            const described = catalog.get(code);
            return (
              <li key={code}>
                {described?.severity ? <span className={`severity severity-${described.severity}`}>{SEVERITY_TEXT[described.severity]}</span> : null} <code>{code}</code>
                {described ? `: ${described.explanation}` : ''}
              </li>
            );
          })}
        </ul>
      )}
      <div className="table-wrap">
        <table>
          <caption>Facts now, and before their latest change in the period</caption>
          <thead>
            <tr>
              <th scope="col">Fact</th>
              <th scope="col">Now</th>
              <th scope="col">Before</th>
              <th scope="col">Changed</th>
            </tr>
          </thead>
          <tbody>
            {FACTS.map((fact) => {
              const change = fact.field ? latest.get(fact.field) : undefined;
              const noindex = fact.column === 'noindex';
              const now = noindex ? noindexNow(row[fact.column]) : shown(row[fact.column]);
              const before = change ? (noindex ? noindexBefore(change.before) : shown(change.before)) : undefined;
              return (
                <tr key={fact.column}>
                  <th scope="row">{fact.label}</th>
                  <td className="url">{now || <span className="muted">(none)</span>}</td>
                  <td className="url">{before === undefined ? <span className="muted">unchanged</span> : before || <span className="muted">(none)</span>}</td>
                  <td>{change && typeof change.changed_at === 'string' ? <Time iso={change.changed_at} /> : null}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Figure({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="card">
      <div className="muted small">{label}</div>
      <div className="figure-value">{value}</div>
    </div>
  );
}

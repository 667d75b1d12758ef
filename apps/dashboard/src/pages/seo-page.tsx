import { useEffect, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { api } from '../api/endpoints';
import { useDiscovery } from '../api/use-discovery';
import { FieldError } from '../components/field-error';
import { PeriodPicker } from '../components/period-picker';
import { cacheLookupPath, renderHistoryPath } from '../lib/renders-state';
import { SEO_DEFAULT_PERIOD, SEO_PRESETS, seoExplorerPath, issueCatalog } from '../lib/seo';
import { ChangesTable } from './seo-parts/changes-feed';
import { PageFactsCard, PAGE_COLUMNS } from './seo-parts/page-facts';

const CHANGE_COLUMNS = ['url', 'dimension', 'changed_at', 'field', 'before', 'after', 'severity'];

/**
 * One page's SEO view: for each dimension its facts now (the `pages`
 * explorer's row), what they were before their latest change, its issues,
 * bot hits and search clicks in the period; and its change history
 * (`page_changes`). The URL and the period are the address's.
 */
export default function SeoPageView() {
  const { website = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const url = params.get('url') ?? '';
  const period = params.get('period') || SEO_DEFAULT_PERIOD;
  const [text, setText] = useState(url);
  useEffect(() => setText(url), [url]);
  const discovery = useDiscovery(website);
  const catalog = issueCatalog(discovery.data);
  const onUrl = [{ field: 'url', op: 'equals', val: url }];
  const facts = useQuery({
    queryKey: ['seo-page', website, url, period],
    queryFn: ({ signal }) => api.explorer.query(website, 'pages', { period, columns: PAGE_COLUMNS, filters: onUrl, sort: 'dimension', sortDir: 'asc', perPage: 100 }, signal),
    enabled: !!url,
  });
  const changes = useQuery({
    queryKey: ['seo-page-changes', website, url, period],
    queryFn: ({ signal }) => api.explorer.query(website, 'page_changes', { period, columns: CHANGE_COLUMNS, filters: onUrl, sort: 'changed_at', sortDir: 'desc', perPage: 500 }, signal),
    enabled: !!url,
  });
  const set = (next: { url?: string; period?: string }) => {
    const search = new URLSearchParams();
    const nextUrl = next.url ?? url;
    const nextPeriod = next.period ?? period;
    if (nextUrl) search.set('url', nextUrl);
    if (nextPeriod !== SEO_DEFAULT_PERIOD) search.set('period', nextPeriod);
    setParams(search);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    set({ url: text.trim() });
  };
  const error = facts.error ?? changes.error;
  const base = `/w/${encodeURIComponent(website)}`;
  return (
    <>
      <p className="small">
        <Link to={`${base}/seo${period !== SEO_DEFAULT_PERIOD ? `?period=${encodeURIComponent(period)}` : ''}`}>SEO health</Link> › page
      </p>
      <h1>SEO of one page</h1>
      <form className="row" onSubmit={submit}>
        <div className="control grow">
          <label htmlFor="seo-url">Page URL</label>
          <input id="seo-url" type="url" value={text} onChange={(e) => setText(e.target.value)} placeholder="https://www.example.com/page" spellCheck={false} aria-invalid={error?.field?.startsWith('filters') || undefined} />
        </div>
        <button type="submit" disabled={!text.trim()}>
          Show
        </button>
        <PeriodPicker id="period" label="Period" presets={SEO_PRESETS} value={period} onChange={(p) => set({ period: p ?? SEO_DEFAULT_PERIOD })} invalid={error?.field === 'period' || undefined} />
      </form>
      <FieldError error={error} control="period" controls={['period']} />
      {error && error.field !== 'period' ? (
        <p className="form-error" role="alert">
          {error.message}
        </p>
      ) : null}
      {!url ? <p>Enter a page URL of the website to see its facts, issues and changes.</p> : null}
      {url ? (
        <p className="small">
          <Link to={cacheLookupPath(website, url)}>What is cached</Link> · <Link to={renderHistoryPath(website, url)}>Render history</Link> ·{' '}
          <Link to={seoExplorerPath(website, 'pages', period, onUrl)}>Its row in the explorer</Link>
        </p>
      ) : null}
      {(facts.isPending || changes.isPending) && url ? (
        <p className="page-status" role="status">
          Loading…
        </p>
      ) : null}
      {/* With the history too: a fact's "before" comes from it, and "unchanged" must not show while it is on its way. */}
      {facts.data && !changes.isPending ? (
        facts.data.data.length === 0 ? (
          <p>No render of this URL with its facts is recorded yet (check the URL: it must match exactly, scheme and query included).</p>
        ) : (
          facts.data.data.map((row) => <PageFactsCard key={String(row._rowId)} row={row} changes={changes.data?.data ?? []} catalog={catalog} />)
        )
      ) : null}
      {url ? (
        <section aria-labelledby="seo-history-heading">
          <h2 id="seo-history-heading">Change history</h2>
          {changes.data ? (
            <>
              <ChangesTable website={website} period={period} rows={changes.data.data} caption={`Changes of ${url} in the period, newest first`} withPage={false} />
              <p className="muted small">
                One row per field and day: the day&apos;s first value before, its latest after, its most severe severity.{' '}
                <Link to={seoExplorerPath(website, 'page_changes', period, onUrl, { sort: 'changed_at', sortDir: 'desc' })}>In the explorer</Link>
              </p>
            </>
          ) : null}
        </section>
      ) : null}
    </>
  );
}

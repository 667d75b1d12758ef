import { useState, type FormEvent } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { FieldError } from '../components/field-error';
import { PeriodPicker } from '../components/period-picker';
import { Time } from '../components/time';
import { SEO_DEFAULT_PERIOD, SEO_PRESETS, seoPagePath, SEVERITIES } from '../lib/seo';
import { ChangesFeed, type FeedState } from './seo-parts/changes-feed';
import { IssueList } from './seo-parts/issue-list';
import { SeveritySummary } from './seo-parts/severity-summary';
import { useSeoInsights } from './seo-parts/use-seo';

/** The changes feed's state in the URL: `severity`, `order` (critical first by default), `page`. */
function feedOf(params: URLSearchParams): FeedState {
  const page = Number(params.get('page'));
  return {
    severity: SEVERITIES.find((s) => s === params.get('severity')),
    order: params.get('order') === 'newest' ? 'newest' : 'critical',
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/**
 * SEO health for a period: pages with issues by severity now and their
 * trend, the changes' trend, the issue list, a page to open, and the
 * changes feed. The view is the URL's query string.
 */
export default function SeoHealthPage() {
  const { website = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const period = params.get('period') || SEO_DEFAULT_PERIOD;
  const feed = feedOf(params);
  const insights = useSeoInsights(website, period);
  const update = (next: { period?: string; feed?: FeedState }) => {
    const state = { period: next.period ?? period, ...(next.feed ?? (next.period ? { ...feed, page: 1 } : feed)) };
    const search = new URLSearchParams();
    if (state.period !== SEO_DEFAULT_PERIOD) search.set('period', state.period);
    if (state.severity) search.set('severity', state.severity);
    if (state.order !== 'critical') search.set('order', state.order);
    if (state.page > 1) search.set('page', String(state.page));
    setParams(search);
  };
  return (
    <>
      <h1>SEO health</h1>
      <div className="row">
        <PeriodPicker id="period" label="Period" presets={SEO_PRESETS} value={period} onChange={(p) => update({ period: p ?? SEO_DEFAULT_PERIOD })} invalid={insights.error?.field === 'period' || undefined} />
        {insights.data ? (
          <p className="muted small">
            Changes from <Time iso={insights.data.meta.window.start} /> to <Time iso={insights.data.meta.window.end} />; issues as of each page&apos;s latest render, now and at the end of each day (duplicate titles only now).
          </p>
        ) : null}
      </div>
      <FieldError error={insights.error} control="period" controls={['period']} />
      {insights.error && insights.error.field !== 'period' ? (
        <p className="form-error" role="alert">
          {insights.error.message}
        </p>
      ) : null}
      {insights.isPending ? (
        <p className="page-status" role="status">
          Loading…
        </p>
      ) : null}
      {insights.data ? (
        insights.data.data.pages === 0 ? (
          <p>No page has been rendered with its facts yet: facts are read from every render, so this page fills as pages are rendered or recached.</p>
        ) : (
          <>
            <SeveritySummary insights={insights.data} />
            <IssueList website={website} period={period} issues={insights.data.data.issues} />
          </>
        )
      ) : null}
      <OpenPage website={website} period={period} />
      <ChangesFeed website={website} period={period} state={feed} onChange={(next) => update({ feed: next })} />
    </>
  );
}

/** A URL to open in the page view. */
function OpenPage({ website, period }: { website: string; period: string }) {
  const [url, setUrl] = useState('');
  const navigate = useNavigate();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (url.trim()) navigate(seoPagePath(website, url.trim(), period));
  };
  return (
    <section aria-labelledby="seo-open-heading">
      <h2 id="seo-open-heading">One page</h2>
      <form className="row" onSubmit={submit}>
        <div className="control grow">
          <label htmlFor="seo-page-url">Page URL</label>
          <input id="seo-page-url" type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://www.example.com/page" spellCheck={false} />
        </div>
        <button type="submit" disabled={!url.trim()}>
          Open
        </button>
      </form>
    </section>
  );
}

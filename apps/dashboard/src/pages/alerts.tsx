import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { api } from '../api/endpoints';
import type { AlertDelivery } from '../api/types';
import { FieldError, FormError } from '../components/field-error';
import { Pager } from '../components/pager';
import { Time } from '../components/time';
import { rendersSearchParams } from '../lib/renders-state';
import { useWebsite } from '../session';

const PER_PAGE_CHOICES = [25, 50, 100];
const CONTROLS = ['page', 'perPage', 'status'] as const;
const TYPES: Record<string, string> = {
  render_failures: 'Render failures',
  page_errors: 'Page errors',
  export_finished: 'Export finished',
  noindex_appeared: 'Noindex appeared',
  critical_pages_up: 'Pages with critical SEO issues up',
};
const DAY_MS = 86_400_000;
/** An instant as the renders period takes it (YYYY-MM-DDTHH:mm, UTC). */
const minuteOf = (ms: number): string => new Date(ms).toISOString().slice(0, 16);
const STATUSES: Record<AlertDelivery['status'], string> = { delivered: 'delivered', retrying: 'retrying', failed: 'failed' };

/** The website's webhook alerts as delivered (or not): each attempt with its answer. Paging is the URL's (`?page=`, `?perPage=`). */
export default function AlertsPage() {
  const { website = '' } = useParams();
  const [params, setParams] = useSearchParams();
  // A render-failures alert leads to the failures it counted: the failed renders of the day before its delivery, whenever
  // that was (the delivery log keeps no alert window; the Renders page needs the platform module).
  const platformModule = useWebsite()?.platformModule;
  const failuresPath = (deliveredAt: string): string | undefined => {
    const at = Date.parse(deliveredAt);
    if (!platformModule || Number.isNaN(at)) return undefined;
    // The end is the minute after the delivery: the period's end is exclusive and counted in whole minutes.
    const period = `${minuteOf(at - DAY_MS)},${minuteOf(at + 60_000)}`;
    return `/w/${encodeURIComponent(website)}/renders?${rendersSearchParams({ show: 'failed', period }).toString()}`;
  };
  const page = Number(params.get('page')) || 1;
  const perPage = Number(params.get('perPage')) || PER_PAGE_CHOICES[0]!;
  const rawStatus = params.get('status');
  const status = rawStatus && rawStatus in STATUSES ? (rawStatus as AlertDelivery['status']) : undefined;
  const deliveries = useQuery({
    queryKey: ['alert-deliveries', website, page, perPage, status],
    queryFn: ({ signal }) => api.alerts.deliveries(website, { page, perPage, status }, signal),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
  const go = (changes: { page?: number; perPage?: number; status?: string }) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined || value === '' || (key === 'page' && Number(value) <= 1)) next.delete(key);
      else next.set(key, String(value));
    }
    setParams(next);
  };
  return (
    <>
      <h1>Alerts</h1>
      <p className="muted">
        The webhook deliveries of this website's alerts (render failures over a threshold, pages bots request often answering errors, noindex appearing on pages, more pages with critical SEO issues than the day before, finished exports), newest first: one row per attempt. The webhook and its thresholds are set in the service's configuration
        (<code>websites[].alerts</code>); each body is signed in the <code>X-BPC-Signature</code> header.
      </p>
      <div className="row">
        <div className="control">
          <label htmlFor="status">Status</label>
          <select id="status" value={status ?? ''} onChange={(e) => go({ status: e.target.value, page: 1 })} aria-invalid={deliveries.error?.field === 'status' || undefined}>
            <option value="">All tries</option>
            <option value="delivered">Delivered</option>
            <option value="retrying">Failed, retrying</option>
            <option value="failed">Failed, no more tries</option>
          </select>
          <FieldError error={deliveries.error} control="status" controls={CONTROLS} />
        </div>
      </div>
      <FormError error={deliveries.error} controls={CONTROLS} />
      {deliveries.isPending ? (
        <p className="page-status" role="status">
          Loading the deliveries…
        </p>
      ) : null}
      {deliveries.data ? (
        <>
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Webhook deliveries</caption>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Type</th>
                  <th scope="col" className="num">
                    Attempt
                  </th>
                  <th scope="col">Status</th>
                  <th scope="col" className="num">
                    HTTP status
                  </th>
                  <th scope="col">Error</th>
                </tr>
              </thead>
              <tbody>
                {deliveries.data.data.map((d) => (
                  <tr key={`${d.alertId} ${d.attempt}`}>
                    <td>
                      <Time iso={d.at} />
                    </td>
                    <td title={`Alert ${d.alertId}`}>
                      <AlertType type={d.type} failuresPath={d.type === 'render_failures' ? failuresPath(d.at) : undefined} />
                    </td>
                    <td className="num">{d.attempt}</td>
                    <td>
                      <span className={d.status === 'delivered' ? 'state-stored' : d.status === 'failed' ? 'state-failed' : 'state-kept'}>{STATUSES[d.status] ?? d.status}</span>
                    </td>
                    <td className="num">{d.httpStatus ?? '–'}</td>
                    <td>{d.error ? d.error : <span className="muted">–</span>}</td>
                  </tr>
                ))}
                {deliveries.data.data.length === 0 ? (
                  <tr>
                    <td colSpan={6} className="muted">
                      No alert delivered yet. Alerts go out once the website has a webhook in its configuration and something passes a threshold.
                    </td>
                  </tr>
                ) : null}
              </tbody>
            </table>
          </div>
          <Pager label="Pages of deliveries" meta={deliveries.data.meta} onPage={(p) => go({ page: p })}>
            <label htmlFor="perPage">Rows per page</label>
            <select id="perPage" value={perPage} onChange={(e) => go({ perPage: Number(e.target.value), page: 1 })} aria-invalid={deliveries.error?.field === 'perPage' || undefined}>
              {[...new Set([...PER_PAGE_CHOICES, perPage])].sort((a, b) => a - b).map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </Pager>
        </>
      ) : null}
      <FieldError error={deliveries.error} control="page" controls={CONTROLS} />
      <FieldError error={deliveries.error} control="perPage" controls={CONTROLS} />
    </>
  );
}

/** An alert's type in words, leading to what it counted where there is a page for it. */
function AlertType({ type, failuresPath }: { type: string; failuresPath?: string }) {
  const label = TYPES[type] ?? type;
  return failuresPath ? <Link to={failuresPath}>{label}</Link> : <>{label}</>;
}

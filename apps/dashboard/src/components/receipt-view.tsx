import { useId, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../api/endpoints';
import type { Receipt, ReceiptState } from '../api/types';
import { formatInteger } from '../lib/format';
import { RECEIPT_GRACE_MS, RECEIPT_POLL_MS, receiptDone, receiptPollMs, settledCount, totalsSentence } from '../lib/receipts';
import { OUTCOME_LABELS, renderHistoryPath } from '../lib/renders-state';
import { useWebsite } from '../session';
import { Pager } from './pager';
import { Time } from './time';

const PER_PAGE = 50;
const STATES: ReceiptState[] = ['queued', 'rendering', 'stored', 'kept', 'failed'];
const STATE_LABELS: Record<ReceiptState, string> = { queued: 'queued', rendering: 'rendering', stored: 'stored', kept: 'kept the old page', failed: 'failed' };
const SOURCES: Record<Receipt['source'], string> = { api: 'a recache', sitemap: 'a sitemap recache', daemon: 'a daemon recache' };

export const receiptKey = (website: string, receiptId: string) => ['receipt', website, receiptId] as const;

/**
 * A recache's receipt, followed live: read every 2 s until no entry is
 * queued or rendering, then left as it is. Totals, and per URL and
 * dimension its state, with the outcome and reason once it has one.
 */
export function ReceiptView({ website, receiptId, justStarted = false }: { website: string; receiptId: string; justStarted?: boolean }) {
  const id = useId();
  const [shownAt] = useState(() => Date.now());
  // A receipt this page just started may not be readable yet (404 for a moment): keep asking for a while.
  const waitingForIt = () => justStarted && Date.now() - shownAt < RECEIPT_GRACE_MS;
  const [page, setPage] = useState(1);
  const [state, setState] = useState<ReceiptState | ''>('');
  const query = useQuery({
    queryKey: [...receiptKey(website, receiptId), page, state],
    queryFn: ({ signal }) => api.cache.receipt(website, receiptId, { page, perPage: PER_PAGE, state: state || undefined }, signal),
    refetchInterval: (q) => receiptPollMs({ data: q.state.data, errorCode: q.state.error?.code }, waitingForIt()),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const receipt = query.data;
  const done = receipt ? receiptDone(receipt) : false;
  // Render history needs the platform module: where it is there, a failed or kept entry links to its renders.
  const history = useWebsite()?.platformModule ? (url: string) => renderHistoryPath(website, url) : undefined;
  return (
    <section className="card stack" aria-labelledby={`${id}-title`} data-testid="receipt">
      <h3 id={`${id}-title`} className="flush">
        Receipt <code>{receiptId}</code>
      </h3>
      {query.error && query.error.code === 'RECEIPT_NOT_FOUND' && waitingForIt() ? (
        <p role="status">The recache is recorded; its receipt is on its way…</p>
      ) : query.error ? (
        <p className="form-error" role="alert">
          {query.error.code === 'RECEIPT_NOT_FOUND' ? `Receipt ${receiptId} is not one of this website's.` : query.error.message}
        </p>
      ) : null}
      {!receipt && query.isPending ? <p role="status">Reading the receipt…</p> : null}
      {receipt ? (
        <>
          <p className="muted small">
            For {SOURCES[receipt.source] ?? receipt.source}, <Time iso={receipt.createdAt} />.
          </p>
          <p role="status" aria-live="polite" data-testid="receipt-totals">
            <strong>{done ? 'Done. ' : 'In progress. '}</strong>
            {totalsSentence(receipt.totals)}
          </p>
          <div>
            <progress value={settledCount(receipt.totals)} max={Math.max(receipt.totals.entries, 1)} aria-label={`Receipt ${receiptId}: entries done`} />{' '}
            <span className="muted small">{done ? 'Every entry has an outcome.' : `Read again every ${RECEIPT_POLL_MS / 1000} s until every entry has an outcome.`}</span>
          </div>
          <div className="row">
            <div className="control">
              <label htmlFor={`${id}-state`}>Entries</label>
              <select
                id={`${id}-state`}
                value={state}
                onChange={(e) => {
                  setState(e.target.value as ReceiptState | '');
                  setPage(1);
                }}
              >
                <option value="">All states</option>
                {STATES.map((s) => (
                  <option key={s} value={s}>
                    {STATE_LABELS[s]} ({formatInteger(receipt.totals[s])})
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Entries of receipt {receiptId}</caption>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Dimension</th>
                  <th scope="col">State</th>
                  <th scope="col">Outcome and reason</th>
                  <th scope="col" className="num">
                    Attempt
                  </th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {receipt.data.map((entry) => (
                  <tr key={`${entry.url} ${entry.dimensionId}`}>
                    <td className="url">{entry.url}</td>
                    <td>{entry.dimension}</td>
                    <td data-testid="receipt-state">
                      <span className={`state state-${entry.state}`}>{STATE_LABELS[entry.state] ?? entry.state}</span>
                    </td>
                    <td>
                      {/* The Renders page's words for the outcome (its filters and the API keep the value). */}
                      {entry.outcome ? <span title={entry.outcome}>{OUTCOME_LABELS[entry.outcome] ?? entry.outcome}</span> : null}
                      {entry.reason ? <span className="muted block small">{entry.reason}</span> : null}
                      {!entry.outcome && !entry.reason ? <span className="muted">–</span> : null}
                      {history && (entry.state === 'failed' || entry.state === 'kept') ? (
                        <Link className="small block" to={history(entry.url)}>
                          Render history
                        </Link>
                      ) : null}
                    </td>
                    <td className="num">{entry.attempt ?? '–'}</td>
                    <td>{entry.updatedAt ? <Time iso={entry.updatedAt} /> : '–'}</td>
                  </tr>
                ))}
                {receipt.data.length === 0 ? (
                  <tr>
                    <td colSpan={6} className="muted">
                      No entries in this state.
                    </td>
                  </tr>
                ) : null}
              </tbody>
            </table>
          </div>
          <Pager label={`Pages of receipt ${receiptId}`} meta={receipt.meta} onPage={setPage} />
        </>
      ) : null}
    </section>
  );
}

import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router';
import type { ApiError } from '../api/api-error';
import { api, CACHE_LIMITS } from '../api/endpoints';
import type { Priority, QueueStatus } from '../api/types';
import { FieldError, FormError } from '../components/field-error';
import { ReceiptView } from '../components/receipt-view';
import { Time } from '../components/time';
import { drainEstimateText, drainRateText } from '../lib/drain';
import { indexOf, withoutFieldName } from '../lib/error-fields';
import { formatInteger } from '../lib/format';
import { parseUrlList, type ListedUrl } from '../lib/url-list';
import type { MatcherKind } from '../lib/url-matcher';
import { useWebsite } from '../session';
import { EntryLookup } from './cache-parts/entry-lookup';
import { EntrySearch } from './cache-parts/entry-search';
import { InvalidateMatching, type InvalidateSeed } from './cache-parts/invalidate-matching';
import { SitemapRecache } from './cache-parts/sitemap-recache';

export const QUEUE_POLL_MS = 3000;

/**
 * The website host's queues, live; search the cache entries and look up one
 * URL (any role); recache (URL lists or a sitemap, followed on their receipt)
 * and invalidate (URL lists or every entry matching, after a dry run) for
 * managers and above (the API refuses readonly anyway).
 */
export default function CachePage() {
  const { website = '' } = useParams();
  const view = useWebsite();
  const canOperate = !!view && view.role !== 'readonly';
  // The receipt followed is in the URL (`?receipt=`): it survives a reload and can be shared, one started by the API too.
  const [params, setParams] = useSearchParams();
  // `?lookup=<url>` opens that URL's lookup (the Renders page links a page here).
  const [lookup, setLookup] = useState<{ url: string; at: number } | undefined>(() => {
    const url = params.get('lookup');
    return url ? { url, at: 0 } : undefined;
  });
  const [invalidateSeed, setInvalidateSeed] = useState<InvalidateSeed>();
  const receiptId = params.get('receipt') || undefined;
  const [startedHere, setStartedHere] = useState<string>();
  const setReceiptId = (id: string) => {
    setStartedHere(id);
    setParams({ receipt: id }, { replace: true });
  };
  // Each section takes the focus (and so the view) when it is handed a URL or a matcher.
  const lookUp = (url: string) => setLookup({ url, at: Date.now() });
  const invalidateFrom = (kind: MatcherKind, text: string) => setInvalidateSeed({ kind, text, at: Date.now() });
  return (
    <>
      <h1>Cache</h1>
      <QueuePanel website={website} />
      <EntrySearch website={website} onLookup={lookUp} onInvalidate={canOperate ? invalidateFrom : undefined} />
      <EntryLookup website={website} requested={lookup} />
      {canOperate ? (
        <>
          <div className="grid-2">
            <UrlOperation website={website} kind="recache" onReceipt={setReceiptId} />
            <UrlOperation website={website} kind="invalidate" />
          </div>
          <div className="grid-2">
            <SitemapRecache website={website} onReceipt={setReceiptId} />
            <InvalidateMatching website={website} seed={invalidateSeed} />
          </div>
        </>
      ) : (
        <p className="muted">Your role on this website is read-only: recaching and invalidating pages need the manager role.</p>
      )}
      {receiptId ? (
        <section aria-labelledby="receipt-title">
          <h2 id="receipt-title">Recache receipt</h2>
          <ReceiptView key={receiptId} website={website} receiptId={receiptId} justStarted={receiptId === startedHere} />
        </section>
      ) : null}
    </>
  );
}

function QueuePanel({ website }: { website: string }) {
  const queue = useQuery({ queryKey: ['queue', website], queryFn: ({ signal }) => api.cache.queue(website, signal), refetchInterval: QUEUE_POLL_MS, staleTime: 0 });
  return (
    <section aria-labelledby="queue-title" className="card">
      <h2 id="queue-title" className="flush">
        Render queue
      </h2>
      {queue.error ? <p className="form-error" role="alert">{queue.error.message}</p> : null}
      {queue.data ? <QueueTable status={queue.data} /> : queue.isPending ? <p role="status">Loading…</p> : null}
      <p className="muted small">Updated every {QUEUE_POLL_MS / 1000} s.</p>
    </section>
  );
}

function QueueTable({ status }: { status: QueueStatus }) {
  return (
    <>
      <p aria-live="polite">
        {/* Websites on one host share its queues; the host's id means nothing to a customer. */}
        Queue:{' '}
        {status.paused ? (
          <strong>
            paused
            {status.pausedUntil ? (
              <>
                {' '}
                until <Time iso={status.pausedUntil} />
              </>
            ) : null}
          </strong>
        ) : (
          'rendering'
        )}
      </p>
      <table>
        <caption className="visually-hidden">Queued renders per priority</caption>
        <thead>
          <tr>
            <th scope="col">Priority</th>
            <th scope="col" className="num">
              Waiting
            </th>
            <th scope="col" className="num">
              Due now
            </th>
            <th scope="col" className="num">
              Drain estimate
            </th>
          </tr>
        </thead>
        <tbody>
          {(['high', 'normal'] as const).map((p) => (
            <tr key={p}>
              <th scope="row">{p}</th>
              <td className="num" data-testid={`queue-${p}-total`}>
                {formatInteger(status.queues[p].total)}
              </td>
              <td className="num" data-testid={`queue-${p}-due`}>
                {formatInteger(status.queues[p].due)}
              </td>
              <td className="num" data-testid={`queue-${p}-drain`} title={drainRateText(status.drainEstimate?.[p])}>
                {drainEstimateText(status.drainEstimate?.[p], status.queues[p].total)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small">
        Drain estimates are estimates: the time to render what waits at the rate entries were completed recently (a pause's remaining time included). They change as the queue and the rate do.
      </p>
    </>
  );
}

const CONTROLS = ['urls', 'priority'] as const;

/** A refused URL in words: its line and the API's reason, without the parameter name (`urls[3]`) people never typed. */
function lineProblem(line: ListedUrl, error: ApiError): string {
  const reason = withoutFieldName(error.message, error.field);
  const sentence = reason === error.message ? `: ${reason}` : ` ${reason}`;
  return `Line ${line.line} (${line.url})${sentence}${/[.!?]$/.test(sentence) ? '' : '.'}`;
}

function UrlOperation({ website, kind, onReceipt }: { website: string; kind: 'recache' | 'invalidate'; onReceipt?: (receiptId: string) => void }) {
  const id = useId();
  const client = useQueryClient();
  const [text, setText] = useState('');
  const [priority, setPriority] = useState<Priority>('normal');
  const [fileProblem, setFileProblem] = useState<string>();
  const [sent, setSent] = useState<ListedUrl[]>([]);
  const listed = parseUrlList(text);
  const limit = kind === 'recache' ? CACHE_LIMITS.recache[priority] : CACHE_LIMITS.invalidate;
  const run = useMutation<string, ApiError, ListedUrl[]>({
    mutationFn: async (urls) => {
      const plain = urls.map((u) => u.url);
      if (kind === 'recache') {
        const r = await api.cache.recache(website, plain, priority);
        if (r.receiptId) onReceipt?.(r.receiptId);
        return `${formatInteger(r.urlsAccepted)} URLs accepted, ${formatInteger(r.entriesEnqueued)} cache entries queued for re-rendering (the current pages stay served until then).${r.receiptId ? ' Their receipt follows below.' : ''}`;
      }
      const r = await api.cache.invalidate(website, plain);
      return `${formatInteger(r.urlsAccepted)} URLs accepted, ${formatInteger(r.entriesInvalidated)} cache entries dropped: the next bot request renders them afresh.`;
    },
    // The queue moved: read it now rather than at the next poll.
    onSuccess: () => void client.invalidateQueries({ queryKey: ['queue', website] }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSent(listed);
    run.mutate(listed);
  };
  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    if (file.size > 2_000_000) {
      setFileProblem('That file is larger than 2 MB: a list of URLs is much smaller. Choose a text file with one URL per line.');
      return;
    }
    setFileProblem(undefined);
    setText(await file.text());
  };
  // A refusal naming `urls[i]` points at the i-th URL sent: say which line it was.
  const badIndex = indexOf(run.error?.field, 'urls');
  const badLine = badIndex !== undefined ? sent[badIndex] : undefined;
  const title = kind === 'recache' ? 'Recache pages' : 'Invalidate pages';
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p className="muted small">
        {kind === 'recache'
          ? `Queue pages for a fresh render; bots keep getting the cached page until it is done. Up to ${CACHE_LIMITS.recache.high} URLs with high priority, ${formatInteger(CACHE_LIMITS.recache.normal)} with normal.`
          : `Drop cached pages now; the next bot request waits for a fresh render. Up to ${formatInteger(CACHE_LIMITS.invalidate)} URLs.`}{' '}
        Absolute URLs on this website's hostnames, one per line.
      </p>
      <form onSubmit={submit} className="stack">
        <label htmlFor={`${id}-urls`}>URLs</label>
        <textarea
          id={`${id}-urls`}
          rows={8}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="https://www.example.com/page"
          spellCheck={false}
          aria-invalid={run.error?.field?.startsWith('urls') || listed.length > limit || undefined}
          aria-describedby={`${id}-count`}
        />
        <span id={`${id}-count`} className={listed.length > limit ? 'field-error' : 'muted small'}>
          {formatInteger(listed.length)} URLs{listed.length > limit ? `: more than the ${formatInteger(limit)} allowed` : ''}
        </span>
        {badLine ? (
          <p className="field-error" role="alert">
            {lineProblem(badLine, run.error!)} Nothing was {kind === 'recache' ? 'queued' : 'dropped'}: correct it and send again.
          </p>
        ) : (
          <FieldError error={run.error} control="urls" controls={CONTROLS} />
        )}
        <label htmlFor={`${id}-file`} className="small">
          Or load a text file
        </label>
        <input id={`${id}-file`} type="file" accept=".txt,.csv,text/plain" onChange={(e) => void upload(e)} />
        {fileProblem ? <p className="field-error">{fileProblem}</p> : null}
        {kind === 'recache' ? (
          <fieldset>
            <legend>Priority</legend>
            {(['normal', 'high'] as const).map((p) => (
              <label key={p} className="block">
                <input type="radio" name={`${id}-priority`} value={p} checked={priority === p} onChange={() => setPriority(p)} /> {p === 'high' ? `High: ahead of the queue (up to ${CACHE_LIMITS.recache.high})` : 'Normal'}
              </label>
            ))}
            <FieldError error={run.error} control="priority" controls={CONTROLS} />
          </fieldset>
        ) : null}
        {badLine ? null : <FormError error={run.error} controls={CONTROLS} />}
        {run.isSuccess ? (
          <p className="notice" role="status">
            {run.data}
          </p>
        ) : null}
        <div>
          <button type="submit" className="primary" disabled={run.isPending || listed.length === 0 || listed.length > limit}>
            {run.isPending ? 'Sending…' : kind === 'recache' ? 'Recache' : 'Invalidate'}
          </button>
        </div>
      </form>
    </section>
  );
}

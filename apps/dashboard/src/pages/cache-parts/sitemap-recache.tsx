import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiError } from '../../api/api-error';
import { api } from '../../api/endpoints';
import type { Priority, SitemapRecacheBody, SitemapRecacheResult } from '../../api/types';
import { FieldError, FormError } from '../../components/field-error';
import { formatInteger } from '../../lib/format';

const CONTROLS = ['sitemapUrl', 'lastmodAfter', 'priority'] as const;

/** Recache every URL of a sitemap or sitemap index (gzip too) on this website's hostnames, optionally only those modified after a day; its receipt goes to `onReceipt` to be followed. */
export function SitemapRecache({ website, onReceipt }: { website: string; onReceipt: (receiptId: string) => void }) {
  const id = useId();
  const client = useQueryClient();
  const [sitemapUrl, setSitemapUrl] = useState('');
  const [lastmodAfter, setLastmodAfter] = useState('');
  const [priority, setPriority] = useState<Priority>('normal');
  const run = useMutation<SitemapRecacheResult, ApiError, SitemapRecacheBody>({
    mutationFn: (body) => api.cache.recacheSitemap(website, body),
    onSuccess: (result) => {
      if (result.receiptId) onReceipt(result.receiptId);
      void client.invalidateQueries({ queryKey: ['queue', website] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    run.mutate({ sitemapUrl: sitemapUrl.trim(), ...(lastmodAfter ? { lastmodAfter } : {}), priority });
  };
  const invalid = (control: string) => run.error?.field === control || undefined;
  const result = run.data;
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Recache a sitemap</h2>
      <p className="muted small">
        Every URL of a sitemap or a sitemap index (gzipped too) on this website's hostnames is queued for a fresh render, in chunks within the queue's limits; bots keep getting the cached pages until then. URLs on other hosts, invalid ones and those over the cap are skipped and counted.
      </p>
      <form onSubmit={submit} className="stack">
        <label htmlFor={`${id}-url`}>Sitemap URL</label>
        <input
          id={`${id}-url`}
          type="url"
          value={sitemapUrl}
          onChange={(e) => setSitemapUrl(e.target.value)}
          placeholder="https://www.example.com/sitemap.xml"
          spellCheck={false}
          aria-invalid={invalid('sitemapUrl')}
          aria-describedby={`${id}-url-error`}
        />
        <FieldError error={run.error} control="sitemapUrl" controls={CONTROLS} id={`${id}-url-error`} />
        <label htmlFor={`${id}-lastmod`}>Only pages modified after (optional)</label>
        <input id={`${id}-lastmod`} type="date" value={lastmodAfter} onChange={(e) => setLastmodAfter(e.target.value)} aria-invalid={invalid('lastmodAfter')} aria-describedby={`${id}-lastmod-help`} />
        <span id={`${id}-lastmod-help`} className="muted small">
          Compared with each URL's <code>lastmod</code>; URLs without one are taken.
        </span>
        <FieldError error={run.error} control="lastmodAfter" controls={CONTROLS} />
        <fieldset>
          <legend>Priority</legend>
          {(['normal', 'high'] as const).map((p) => (
            <label key={p} className="block">
              <input type="radio" name={`${id}-priority`} value={p} checked={priority === p} onChange={() => setPriority(p)} /> {p === 'high' ? 'High: ahead of the queue' : 'Normal'}
            </label>
          ))}
          <FieldError error={run.error} control="priority" controls={CONTROLS} />
        </fieldset>
        <FormError error={run.error} controls={CONTROLS} />
        <div>
          <button type="submit" className="primary" disabled={run.isPending || !sitemapUrl.trim()}>
            {run.isPending ? 'Reading the sitemap…' : 'Recache sitemap'}
          </button>
        </div>
      </form>
      {result ? (
        <p className="notice" role="status" data-testid="sitemap-counts">
            {formatInteger(result.sitemapsRead)} {result.sitemapsRead === 1 ? 'sitemap' : 'sitemaps'} read, {formatInteger(result.urlsFound)} {result.urlsFound === 1 ? 'URL' : 'URLs'} found: {formatInteger(result.urlsAccepted)} taken, {formatInteger(result.entriesEnqueued)} cache entries queued. Skipped:{' '}
            {formatInteger(result.skipped.offHost)} on other hosts, {formatInteger(result.skipped.invalid)} invalid, {formatInteger(result.skipped.overCap)} over the cap, {formatInteger(result.skipped.notModified)} not modified since the day given, {formatInteger(result.skipped.duplicate ?? 0)} listed twice.{' '}
          {result.receiptId ? 'Its receipt follows below.' : 'Nothing was queued.'}
        </p>
      ) : null}
    </section>
  );
}

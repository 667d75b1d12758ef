import { useEffect, useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../api/endpoints';
import type { CacheEntryView } from '../../api/types';
import { FieldError, FormError } from '../../components/field-error';
import { Time } from '../../components/time';
import { formatInteger } from '../../lib/format';
import { renderHistoryPath } from '../../lib/renders-state';
import { seoPagePath } from '../../lib/seo';
import { useWebsite } from '../../session';
import { EntryFactCells, EntryFactHeaders } from './entry-facts';

const CONTROLS = ['url'] as const;

/** What is cached for one URL, every configured dimension: status, rendered and expiry times, size, render time, last served to a bot, hits. */
export function EntryLookup({ website, requested }: { website: string; requested?: { url: string; at: number } }) {
  const id = useId();
  const [text, setText] = useState('');
  const [url, setUrl] = useState<string>();
  // Render history needs the platform module: with it, the looked-up URL links to its renders.
  const platform = useWebsite()?.platformModule;
  const history = platform ? (page: string) => renderHistoryPath(website, page) : undefined;
  // SEO health reads the explorer's store too (platform module): the URL's facts, issues and changes.
  const seo = platform ? (page: string) => seoPagePath(website, page) : undefined;
  // A URL picked in the search results: looked up at once.
  useEffect(() => {
    if (!requested) return;
    setText(requested.url);
    setUrl(requested.url);
    document.getElementById(`${id}-url`)?.focus();
  }, [requested, id]);
  const lookup = useQuery({
    queryKey: ['cache-entry', website, url],
    queryFn: ({ signal }) => api.cache.lookup(website, url!, signal),
    enabled: !!url,
    staleTime: 0,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = text.trim();
    if (trimmed === url) void lookup.refetch();
    else setUrl(trimmed || undefined);
  };
  const error = url ? lookup.error : null;
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Look up a URL</h2>
      <form onSubmit={submit} className="row">
        <div className="control grow">
          <label htmlFor={`${id}-url`}>Page URL</label>
          <input
            id={`${id}-url`}
            type="url"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="https://www.example.com/page"
            spellCheck={false}
            aria-invalid={error?.field === 'url' || undefined}
            aria-describedby={error?.field === 'url' ? `${id}-error` : undefined}
          />
        </div>
        <button type="submit" disabled={!text.trim() || lookup.isFetching}>
          {lookup.isFetching ? 'Looking up…' : 'Look up'}
        </button>
      </form>
      <FieldError error={error} control="url" controls={CONTROLS} id={`${id}-error`} />
      <FormError error={error} controls={CONTROLS} />
      {url && lookup.data ? <LookupTable url={lookup.data.url} entries={lookup.data.entries} history={history ? history(lookup.data.url) : undefined} seo={seo ? seo(lookup.data.url) : undefined} /> : null}
    </section>
  );
}

function LookupTable({ url, entries, history, seo }: { url: string; entries: CacheEntryView[]; history?: string; seo?: string }) {
  const cached = entries.filter((e) => e.cached).length;
  return (
    <>
      <p aria-live="polite">
        <span className="url">{url}</span>: cached in {formatInteger(cached)} of {formatInteger(entries.length)} dimensions.
        {history ? (
          <>
            {' '}
            <Link to={history}>Render history</Link>
          </>
        ) : null}
        {seo ? (
          <>
            {' '}
            · <Link to={seo}>SEO health</Link>
          </>
        ) : null}
      </p>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Cache entries of {url}, per dimension</caption>
          <thead>
            <tr>
              <th scope="col">Dimension</th>
              <th scope="col">Cached</th>
              <EntryFactHeaders />
              <th scope="col">Last served to a bot</th>
              <th scope="col" className="num">
                Hits
              </th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.dimensionId}>
                <th scope="row">{e.dimension}</th>
                <td>{e.cached ? `yes${e.kind ? ` (${e.kind})` : ''}` : 'no'}</td>
                <EntryFactCells entry={e} />
                <td>{e.lastServedAt ? <Time iso={e.lastServedAt} /> : 'not since rendered'}</td>
                <td className="num">{formatInteger(e.hits)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

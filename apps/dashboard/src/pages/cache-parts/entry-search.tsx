import { useId, useState, type FormEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/endpoints';
import type { UrlMatcher } from '../../api/types';
import { FieldError, FormError } from '../../components/field-error';
import { Pager } from '../../components/pager';
import { matcherBody, matcherText, type MatcherKind } from '../../lib/url-matcher';
import { EntryFactCells, EntryFactHeaders } from './entry-facts';
import { MatcherInput } from './matcher-input';

const PER_PAGE = 50;
const CONTROLS = ['prefix', 'pattern', 'page', 'perPage'] as const;

interface EntrySearchProps {
  website: string;
  onLookup: (url: string) => void;
  /** Managers: take the search's matcher to "Invalidate matching". */
  onInvalidate?: (kind: MatcherKind, text: string) => void;
}

/** Cache entries whose URL starts with a prefix or matches an RE2 pattern, a page at a time. */
export function EntrySearch({ website, onLookup, onInvalidate }: EntrySearchProps) {
  const id = useId();
  const [kind, setKind] = useState<MatcherKind>('prefix');
  const [text, setText] = useState('');
  const [search, setSearch] = useState<{ matcher: UrlMatcher; kind: MatcherKind; text: string }>();
  const [page, setPage] = useState(1);
  const result = useQuery({
    queryKey: ['cache-entries', website, search?.matcher, page],
    queryFn: ({ signal }) => api.cache.entries(website, { ...search!.matcher, page, perPage: PER_PAGE }, signal),
    enabled: !!search,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const matcher = matcherBody(kind, text);
    if (!matcher) return;
    setSearch({ matcher, kind, text });
    setPage(1);
    if (search && JSON.stringify(search.matcher) === JSON.stringify(matcher) && page === 1) void result.refetch();
  };
  const error = search ? result.error : null;
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Search cache entries</h2>
      <form onSubmit={submit} className="stack">
        <MatcherInput id={id} kind={kind} text={text} onKind={setKind} onText={setText} error={error} controls={CONTROLS} />
        <div>
          <button type="submit" className="primary" disabled={!matcherBody(kind, text) || result.isFetching}>
            {result.isFetching ? 'Searching…' : 'Search'}
          </button>
        </div>
      </form>
      <FormError error={error} controls={CONTROLS} />
      {search && result.data ? (
        <>
          <p aria-live="polite" className="row">
            <span>
              <strong data-testid="entries-total">{result.data.meta.total}</strong> cache entries of {matcherText(search.matcher)}.
            </span>
            {onInvalidate && result.data.meta.total > 0 ? (
              <button type="button" className="link" onClick={() => onInvalidate(search.kind, search.text)}>
                Invalidate these…
              </button>
            ) : null}
          </p>
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Cache entries of {matcherText(search.matcher)}</caption>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Dimension</th>
                  <th scope="col">Kind</th>
                  <EntryFactHeaders />
                </tr>
              </thead>
              <tbody>
                {result.data.data.map((row) => (
                  <tr key={`${row.url} ${row.dimensionId}`}>
                    <td className="url">
                      <button type="button" className="link" onClick={() => onLookup(row.url)} title={`Look up ${row.url} in every dimension`}>
                        {row.url}
                      </button>
                    </td>
                    <td>{row.dimension ?? <span title="A dimension no longer configured">#{row.dimensionId}</span>}</td>
                    <td>{row.kind}</td>
                    <EntryFactCells entry={row} />
                  </tr>
                ))}
                {result.data.data.length === 0 ? (
                  <tr>
                    <td colSpan={9} className="muted">
                      No cache entry matches.
                    </td>
                  </tr>
                ) : null}
              </tbody>
            </table>
          </div>
          <Pager label="Pages of cache entries" meta={result.data.meta} onPage={setPage} />
        </>
      ) : null}
      <FieldError error={error} control="page" controls={CONTROLS} />
      <FieldError error={error} control="perPage" controls={CONTROLS} />
    </section>
  );
}

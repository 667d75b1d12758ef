import { useEffect, useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiError } from '../../api/api-error';
import { api } from '../../api/endpoints';
import type { InvalidateMatchingResult, UrlMatcher } from '../../api/types';
import { FormError } from '../../components/field-error';
import { formatInteger } from '../../lib/format';
import { matcherBody, matcherText, type MatcherKind } from '../../lib/url-matcher';
import { MatcherInput } from './matcher-input';

const CONTROLS = ['prefix', 'pattern', 'dryRun'] as const;

export interface InvalidateSeed {
  kind: MatcherKind;
  text: string;
  at: number;
}

/**
 * Invalidate every cache entry whose URL starts with a prefix or matches a
 * pattern, in two steps: a dry run counts what matches, then a confirm
 * drops exactly that matcher's entries. Changing the matcher asks for a new count.
 */
export function InvalidateMatching({ website, seed }: { website: string; seed?: InvalidateSeed }) {
  const id = useId();
  const client = useQueryClient();
  const [kind, setKind] = useState<MatcherKind>('prefix');
  const [text, setText] = useState('');
  const [counted, setCounted] = useState<{ matcher: UrlMatcher; result: InvalidateMatchingResult }>();
  const [done, setDone] = useState<InvalidateMatchingResult>();
  useEffect(() => {
    if (!seed) return;
    setKind(seed.kind);
    setText(seed.text);
    setCounted(undefined);
    setDone(undefined);
    document.getElementById(`${id}-text`)?.focus();
  }, [seed, id]);
  const count = useMutation<{ matcher: UrlMatcher; result: InvalidateMatchingResult }, ApiError, UrlMatcher>({
    mutationFn: async (matcher) => ({ matcher, result: await api.cache.invalidateMatching(website, { ...matcher, dryRun: true }) }),
    onSuccess: (answer) => setCounted(answer),
  });
  const invalidate = useMutation<InvalidateMatchingResult, ApiError, UrlMatcher>({
    mutationFn: (matcher) => api.cache.invalidateMatching(website, { ...matcher, dryRun: false }),
    onSuccess: (result) => {
      setDone(result);
      setCounted(undefined);
      // The entries are gone: searches and lookups read again.
      void client.invalidateQueries({ queryKey: ['cache-entries', website] });
      void client.invalidateQueries({ queryKey: ['cache-entry', website] });
    },
  });
  const edit = (change: () => void) => {
    change();
    setCounted(undefined);
    setDone(undefined);
    count.reset();
    invalidate.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const matcher = matcherBody(kind, text);
    if (matcher) count.mutate(matcher);
  };
  const error = count.error ?? invalidate.error;
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Invalidate matching entries</h2>
      <p className="muted small">Drop every cache entry of the matching URLs (all dimensions); the next bot request waits for a fresh render. The count comes first: nothing is dropped until you confirm it.</p>
      <form onSubmit={submit} className="stack">
        <MatcherInput id={id} kind={kind} text={text} onKind={(k) => edit(() => setKind(k))} onText={(t) => edit(() => setText(t))} error={error} controls={CONTROLS} />
        <div>
          <button type="submit" disabled={!matcherBody(kind, text) || count.isPending || invalidate.isPending}>
            {count.isPending ? 'Counting…' : 'Count matching entries (dry run)'}
          </button>
        </div>
      </form>
      <FormError error={error} controls={CONTROLS} />
      {counted ? (
        <div className="card stack" role="status" aria-live="polite">
          <p className="flush" data-testid="dry-run-count">
            {counted.result.entriesMatched === 0 ? (
              <>No cache entry of {matcherText(counted.matcher)}: nothing to invalidate.</>
            ) : (
              <>
                <strong>{formatInteger(counted.result.entriesMatched)}</strong> cache entries of <strong>{formatInteger(counted.result.urlsMatched)}</strong> URLs match ({matcherText(counted.matcher)}). Invalidate them?
              </>
            )}
          </p>
          {counted.result.entriesMatched > 0 ? (
            <div className="row">
              <button type="button" className="danger" onClick={() => invalidate.mutate(counted.matcher)} disabled={invalidate.isPending}>
                {invalidate.isPending ? 'Invalidating…' : `Invalidate ${formatInteger(counted.result.entriesMatched)} entries`}
              </button>
              <button type="button" onClick={() => setCounted(undefined)} disabled={invalidate.isPending}>
                Cancel
              </button>
            </div>
          ) : null}
        </div>
      ) : null}
      {done ? (
        <p className="notice" role="status">
          {formatInteger(done.entriesInvalidated)} cache entries invalidated: the next bot request for them renders afresh.
        </p>
      ) : null}
    </section>
  );
}

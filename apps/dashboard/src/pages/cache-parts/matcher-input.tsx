import type { ApiError } from '../../api/api-error';
import { FieldError } from '../../components/field-error';
import type { MatcherKind } from '../../lib/url-matcher';

interface MatcherInputProps {
  id: string;
  kind: MatcherKind;
  text: string;
  onKind: (kind: MatcherKind) => void;
  onText: (text: string) => void;
  error: ApiError | null | undefined;
  /** Every control of the form around it, for errors that name another. */
  controls: readonly string[];
}

/** "URL prefix" or "RE2 pattern", and the text: which cache entries a search or an invalidation is about. */
export function MatcherInput({ id, kind, text, onKind, onText, error, controls }: MatcherInputProps) {
  const refused = error?.field === kind;
  return (
    <>
      <fieldset>
        <legend>Match URLs by</legend>
        <label className="block">
          <input type="radio" name={`${id}-kind`} value="prefix" checked={kind === 'prefix'} onChange={() => onKind('prefix')} /> Prefix (the start of the URL)
        </label>
        <label className="block">
          <input type="radio" name={`${id}-kind`} value="pattern" checked={kind === 'pattern'} onChange={() => onKind('pattern')} /> Pattern (an RE2 regular expression over the whole URL)
        </label>
      </fieldset>
      <label htmlFor={`${id}-text`}>{kind === 'prefix' ? 'URL prefix' : 'RE2 pattern'}</label>
      <input
        id={`${id}-text`}
        value={text}
        onChange={(e) => onText(e.target.value)}
        placeholder={kind === 'prefix' ? 'https://www.example.com/blog/' : '^https://www\\.example\\.com/p/[0-9]+$'}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={refused || undefined}
        aria-describedby={refused ? `${id}-error` : undefined}
      />
      <FieldError error={error} control={kind} controls={controls} id={`${id}-error`} />
    </>
  );
}

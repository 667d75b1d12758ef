import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { api } from '../api/endpoints';
import { setCsrfToken } from '../api/client';
import type { ApiError } from '../api/api-error';
import type { SessionView, SignInBody } from '../api/types';
import { ApiDownBanner } from '../components/api-down-banner';
import { FieldError, FormError } from '../components/field-error';
import { linkFromHash, safeNextPath } from '../lib/next-path';
import { SESSION_KEY, useSessionQuery } from '../session';

const CONTROLS = ['token', 'link'] as const;

export function firstPage(session: SessionView): string {
  const first = session.websites[0];
  return first ? `/w/${encodeURIComponent(first.id)}` : '/no-websites';
}

/** Sign in with an API token (exchanged for a session cookie) or a one-time link (`#link=`); then back where the user came from. */
export default function SignInPage() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  const session = useSessionQuery();
  const [token, setToken] = useState('');
  const linkSent = useRef(false);

  const signIn = useMutation<SessionView, ApiError, SignInBody>({
    mutationFn: (body) => api.session.open(body),
    onSuccess: (view) => {
      // Before any page's first POST (SessionSync's effect would come after the page's queries start).
      setCsrfToken(view.csrfToken);
      client.clear();
      client.setQueryData(SESSION_KEY, view);
      navigate(next ?? firstPage(view), { replace: true });
    },
  });

  // A sign-in link: send its secret once, and take it out of the address bar (and so out of the history).
  useEffect(() => {
    const link = linkFromHash(location.hash);
    if (!link || linkSent.current) return;
    linkSent.current = true;
    window.history.replaceState(null, '', location.pathname + location.search);
    signIn.mutate({ link });
  }, [location.hash, location.pathname, location.search, signIn]);

  if (session.data && !signIn.isPending && !linkSent.current) return <Navigate to={next ?? firstPage(session.data)} replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = token.trim();
    if (trimmed) signIn.mutate({ token: trimmed });
  };

  return (
    <main className="page narrow sign-in">
      <ApiDownBanner />
      <h1>Sign in</h1>
      <p className="muted">Bot pre-rendering cache: what bots read on your website, and its cache.</p>
      {signIn.isPending && signIn.variables && 'link' in signIn.variables ? <p role="status">Signing in with your link…</p> : null}
      <FieldError error={signIn.error} control="link" controls={CONTROLS} />
      <FormError error={signIn.error} controls={CONTROLS} />
      <form onSubmit={submit} className="stack">
        <label htmlFor="token">API token</label>
        <input
          id="token"
          name="token"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={token}
          onChange={(e) => setToken(e.target.value)}
          placeholder="bpc_tok_…"
          aria-invalid={signIn.error?.field === 'token' || undefined}
          aria-describedby="token-help token-error"
          required
        />
        <FieldError error={signIn.error} control="token" controls={CONTROLS} id="token-error" />
        <p id="token-help" className="muted small">
          The token opens a session in this browser (a cookie the page cannot read); the token itself is not kept. Or open a sign-in link from{' '}
          <code>npm run cli -- dashboard link --user &lt;id&gt;</code>.
        </p>
        <button type="submit" className="primary" disabled={signIn.isPending}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}

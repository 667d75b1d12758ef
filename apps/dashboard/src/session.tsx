import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Navigate, useLocation, useParams } from 'react-router';
import { api } from './api/endpoints';
import { ApiError } from './api/api-error';
import { onSessionLost, setCsrfToken } from './api/client';
import type { SessionView, WebsiteView } from './api/types';
import { ApiDownBanner } from './components/api-down-banner';
import { signInPath } from './lib/next-path';

export const SESSION_KEY = ['session'] as const;

/** The session view, or null when nobody is signed in (GET /api/session answered 401). */
async function readSession(signal: AbortSignal): Promise<SessionView | null> {
  try {
    const view = await api.session.read(signal);
    // At once, not in an effect: the page's first POST may leave before effects run.
    setCsrfToken(view.csrfToken);
    return view;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function useSessionQuery() {
  return useQuery({ queryKey: SESSION_KEY, queryFn: ({ signal }) => readSession(signal), staleTime: Infinity, retry: (count, error) => error instanceof ApiError && error.unreachable && count < 2 });
}

/** Keeps the client's CSRF token in step with the session, and forgets the session on any 401. */
export function SessionSync(): null {
  const client = useQueryClient();
  const { data } = useSessionQuery();
  useEffect(() => setCsrfToken(data?.csrfToken), [data]);
  useEffect(() => {
    onSessionLost(() => {
      setCsrfToken(undefined);
      client.setQueryData(SESSION_KEY, null);
    });
    return () => onSessionLost(undefined);
  }, [client]);
  return null;
}

const SessionContext = createContext<SessionView | undefined>(undefined);

export function useSession(): SessionView {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside RequireSession');
  return session;
}

/** The website of the route (`/w/:website`), among the session's websites. */
export function useWebsite(): WebsiteView | undefined {
  const session = useSession();
  const { website } = useParams();
  return session.websites.find((w) => w.id === website);
}

/** Renders its children with a session; without one, goes to sign-in and comes back to this very URL after. */
export function RequireSession({ children }: { children: ReactNode }) {
  const location = useLocation();
  const query = useSessionQuery();
  if (query.isPending) {
    return (
      <>
        <ApiDownBanner />
        <p className="page-status" role="status">
          Loading…
        </p>
      </>
    );
  }
  if (query.isError) {
    return (
      <main className="page narrow">
        <ApiDownBanner force />
        <p>{query.error.message}</p>
        <button type="button" onClick={() => void query.refetch()}>Try again</button>
      </main>
    );
  }
  if (!query.data) return <Navigate to={signInPath(location.pathname + location.search + location.hash)} replace />;
  return <SessionContext.Provider value={query.data}>{children}</SessionContext.Provider>;
}

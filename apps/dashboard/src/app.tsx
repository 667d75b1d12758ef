import { lazy, Suspense, type ComponentType } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, Navigate, RouterProvider, type RouteObject } from 'react-router';
import { ApiError } from './api/api-error';
import { Layout } from './layout';
import SignInPage, { firstPage } from './pages/sign-in';
import { RequireSession, SessionSync, useSession } from './session';

interface PageHandle {
  load: () => Promise<unknown>;
}

/** A page loaded on first visit (route-level splitting: the sign-in page and the shell stay small), its module loadable before it renders. */
function lazyPage(load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'element' | 'handle'> {
  const Page = lazy(load);
  return { element: <Page />, handle: { load } satisfies PageHandle };
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Refusals (4xx) are answers: no retry. An unreachable API is retried a little.
      retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
      staleTime: 30_000,
    },
  },
});

function Home() {
  const session = useSession();
  return <Navigate to={firstPage(session)} replace />;
}

function NoWebsites() {
  return <p>Your user has no role on any website yet. Ask an administrator to grant you one.</p>;
}

function NotFound() {
  return <p>There is no such page. Use the links above.</p>;
}

const router = createBrowserRouter([
  { path: '/sign-in', element: <SignInPage /> },
  {
    element: (
      <RequireSession>
        <Layout />
      </RequireSession>
    ),
    children: [
      { path: '/', element: <Home /> },
      { path: '/no-websites', element: <NoWebsites /> },
      { path: '/w/:website', ...lazyPage(() => import('./pages/overview')) },
      { path: '/w/:website/explorer', ...lazyPage(() => import('./pages/explorer')) },
      { path: '/w/:website/exports', ...lazyPage(() => import('./pages/exports')) },
      { path: '/w/:website/cache', ...lazyPage(() => import('./pages/cache')) },
      { path: '/w/:website/search', ...lazyPage(() => import('./pages/search')) },
      { path: '/w/:website/renders', ...lazyPage(() => import('./pages/renders')) },
      { path: '/w/:website/ai-agents', ...lazyPage(() => import('./pages/ai-agents')) },
      { path: '/w/:website/seo', ...lazyPage(() => import('./pages/seo')) },
      { path: '/w/:website/seo/page', ...lazyPage(() => import('./pages/seo-page')) },
      { path: '/w/:website/alerts', ...lazyPage(() => import('./pages/alerts')) },
      { path: '*', element: <NotFound /> },
    ],
  },
]);

/**
 * Starts loading the page of the address the app opened at, beside the
 * session request rather than after it: the page's chunk would otherwise wait
 * for the session's answer, a round trip later on a slow network.
 */
export function preloadFirstPage(): void {
  for (const match of router.state.matches) void (match.route.handle as PageHandle | undefined)?.load();
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionSync />
      <Suspense fallback={<p className="page-status">Loading…</p>}>
        <RouterProvider router={router} />
      </Suspense>
    </QueryClientProvider>
  );
}

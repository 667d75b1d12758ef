import { lazy, Suspense } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { ApiError } from './api/api-error';
import { Layout } from './layout';
import SignInPage, { firstPage } from './pages/sign-in';
import { RequireSession, SessionSync, useSession } from './session';

// Pages load on first visit (route-level splitting): the sign-in page and the shell stay small.
const OverviewPage = lazy(() => import('./pages/overview'));
const ExplorerPage = lazy(() => import('./pages/explorer'));
const ExportsPage = lazy(() => import('./pages/exports'));
const CachePage = lazy(() => import('./pages/cache'));
const SearchPage = lazy(() => import('./pages/search'));
const RendersPage = lazy(() => import('./pages/renders'));
const AlertsPage = lazy(() => import('./pages/alerts'));

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
      { path: '/w/:website', element: <OverviewPage /> },
      { path: '/w/:website/explorer', element: <ExplorerPage /> },
      { path: '/w/:website/exports', element: <ExportsPage /> },
      { path: '/w/:website/cache', element: <CachePage /> },
      { path: '/w/:website/search', element: <SearchPage /> },
      { path: '/w/:website/renders', element: <RendersPage /> },
      { path: '/w/:website/alerts', element: <AlertsPage /> },
      { path: '*', element: <NotFound /> },
    ],
  },
]);

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

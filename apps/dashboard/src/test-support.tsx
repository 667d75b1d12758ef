import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import { RequireSession } from './session';

/** Unit tests only: a signed-in user with one role on `demo`, a fetch answered by `handler`, and the page at `entry`. */

export interface Call {
  method: string;
  /** Path and query string (the calls go to the page's own origin). */
  path: string;
  body: unknown;
  headers: Headers;
}

/** A fetch call as the API sees it: the typed client hands fetch a Request; probeApi a path and its init. */
export async function callOf(input: RequestInfo | URL, init?: RequestInit): Promise<Call> {
  const request = input instanceof Request ? input : new Request(new URL(String(input), location.origin), init);
  const url = new URL(request.url);
  const text = await request.text();
  return { method: request.method, path: url.pathname + url.search, body: text ? JSON.parse(text) : undefined, headers: request.headers };
}

export type Handler = (call: Call) => { status?: number; body: unknown } | undefined;

export function serveApi(role: string, handler: Handler) {
  const calls: Call[] = [];
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const call = await callOf(input, init);
    if (call.path === '/api/session') {
      const view = { userId: 'alice', via: 'token', expiresAt: '2026-11-28T00:00:00.000Z', csrfToken: 'c', websites: [{ id: 'demo', role, platformModule: true, hostnames: ['www.example.com'], edgeUrl: 'http://edge/' }] };
      return new Response(JSON.stringify(view), { status: 200 });
    }
    calls.push(call);
    const answer = handler(call);
    if (!answer) return new Response(JSON.stringify({ code: 'NOT_FOUND', message: `no mock for ${call.method} ${call.path}` }), { status: 404 });
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

export function renderPage(routes: RouteObject[], entry: string) {
  const router = createMemoryRouter(
    routes.map((route) => ({ ...route, element: <RequireSession>{route.element}</RequireSession> })),
    { initialEntries: [entry] },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

export const envelope = (status: number, code: string, message: string, field?: string) => ({ status, body: { code, message, ...(field ? { field } : {}) } });

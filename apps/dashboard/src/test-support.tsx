import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import { RequireSession } from './session';

/** Unit tests only: a signed-in user with one role on `demo`, a fetch answered by `handler`, and the page at `entry`. */

export interface Call {
  method: string;
  path: string;
  body: unknown;
}

export type Handler = (call: Call) => { status?: number; body: unknown } | undefined;

export function serveApi(role: string, handler: Handler) {
  const calls: Call[] = [];
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const call = { method: init?.method ?? 'GET', path: String(input), body: init?.body ? JSON.parse(String(init.body)) : undefined };
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

// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { SessionSync } from '../session';
import { callOf, type Call } from '../test-support';
import SignInPage from './sign-in';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const view = { userId: 'alice', via: 'token', expiresAt: '2026-11-28T00:00:00.000Z', csrfToken: 'c', websites: [{ id: 'demo', role: 'manager', platformModule: true, hostnames: [], edgeUrl: 'http://edge/' }] };

function serve(onOpen: (body: unknown) => Response) {
  const calls: Call[] = [];
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const call = await callOf(input, init);
    calls.push(call);
    if (call.path === '/api/session' && call.method === 'GET') return new Response(JSON.stringify({ code: 'UNAUTHENTICATED', message: 'no session' }), { status: 401 });
    if (call.path === '/api/session' && call.method === 'POST') return onOpen(call.body);
    return new Response('{}', { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

function renderAt(entry: string) {
  const router = createMemoryRouter(
    [
      { path: '/sign-in', element: <SignInPage /> },
      { path: '/w/:website/explorer', element: <p>explorer page</p> },
      { path: '/w/:website', element: <p>overview page</p> },
    ],
    { initialEntries: [entry] },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <SessionSync />
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe('SignInPage', () => {
  it('exchanges a pasted token for a session and goes back to the view the user came from', async () => {
    const calls = serve(() => new Response(JSON.stringify(view), { status: 200 }));
    const router = renderAt('/sign-in?next=%2Fw%2Fdemo%2Fexplorer%3Fmode%3Dcomparison');
    fireEvent.change(await screen.findByLabelText('API token'), { target: { value: ' bpc_tok_x ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByText('explorer page');
    expect(router.state.location.search).toBe('?mode=comparison');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ token: 'bpc_tok_x' });
  });

  it('shows a refused token at the token field', async () => {
    serve(() => new Response(JSON.stringify({ code: 'UNAUTHENTICATED', message: 'API token revoked', field: 'token' }), { status: 401 }));
    renderAt('/sign-in');
    const input = await screen.findByLabelText('API token');
    fireEvent.change(input, { target: { value: 'bpc_tok_y' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('API token revoked')).toBeTruthy();
    await waitFor(() => expect(input.getAttribute('aria-invalid')).toBe('true'));
  });

  it('sends the secret of a sign-in link once and opens the first website', async () => {
    const opened: unknown[] = [];
    serve((body) => {
      opened.push(body);
      return new Response(JSON.stringify(view), { status: 200 });
    });
    renderAt('/sign-in#link=secret-1');
    await screen.findByText('overview page');
    expect(opened).toEqual([{ link: 'secret-1' }]);
  });
});

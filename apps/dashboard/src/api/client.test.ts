import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-error';
import { answerOf, apiHealth, onSessionLost, probeApi, publicApi, setCsrfToken } from './client';

/** Answers every call with `status` and `body` (a fresh Response each time: a body is read once). */
const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
  const fetchMock = vi.fn<typeof fetch>(async () => new Response(status === 204 ? null : typeof body === 'string' ? body : JSON.stringify(body), { status, headers }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
};
/** The Request the typed client handed to fetch on its nth call. */
const sent = (fetchMock: ReturnType<typeof answer>, n = 0) => fetchMock.mock.calls[n]![0] as Request;
const unreachable = () => vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockRejectedValue(new TypeError('Failed to fetch')));

const websites = () => answerOf(publicApi.GET('/api/websites'));
const recache = () => answerOf(publicApi.POST('/api/websites/{website}/cache/recache', { params: { path: { website: 'demo' } }, body: { urls: ['https://www.example.com/a'] } }));

afterEach(() => {
  onSessionLost(undefined);
  setCsrfToken(undefined);
  vi.unstubAllGlobals();
});

describe('answerOf(publicApi…)', () => {
  it('returns the JSON of a 2xx answer and sends the session cookie, not a token', async () => {
    const fetchMock = answer(200, { websites: [] });
    await expect(websites()).resolves.toEqual({ websites: [] });
    const request = sent(fetchMock);
    expect(request.url).toBe(`${location.origin}/api/websites`);
    expect(request.credentials).toBe('same-origin');
    expect(request.headers.get('authorization')).toBeNull();
    expect(request.headers.get('accept')).toBe('application/json');
  });

  it('sends X-CSRF-Token on every call but GET, and the body as JSON', async () => {
    setCsrfToken('csrf-1');
    const fetchMock = answer(200, { websites: [] });
    await recache();
    await websites();
    setCsrfToken(undefined);
    await recache();
    expect(fetchMock.mock.calls.map((_, n) => `${sent(fetchMock, n).method} ${sent(fetchMock, n).headers.get('x-csrf-token')}`)).toEqual(['POST csrf-1', 'GET null', 'POST null']);
    expect(sent(fetchMock).headers.get('content-type')).toBe('application/json');
    expect(await sent(fetchMock).text()).toBe('{"urls":["https://www.example.com/a"]}');
  });

  it('puts path and query parameters into the URL, encoded', async () => {
    const fetchMock = answer(200, {});
    await answerOf(publicApi.GET('/api/websites/{website}/cache/receipts/{receiptId}', { params: { path: { website: 'a b', receiptId: 'r/1' }, query: { page: 2, state: 'failed' } } }));
    expect(sent(fetchMock).url).toBe(`${location.origin}/api/websites/a%20b/cache/receipts/r%2F1?page=2&state=failed`);
  });

  it('turns the error envelope into an ApiError with its field and extra members', async () => {
    answer(409, { code: 'EXPORT_SLOT_BUSY', message: 'export 7 is running', exportId: 7 });
    const error = await recache().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'EXPORT_SLOT_BUSY', message: 'export 7 is running', body: { exportId: 7 } });
    answer(400, { code: 'VALIDATION_FAILED', message: 'perPage must be an integer from 1 to 500', field: 'perPage' });
    const refused = await recache().catch((e: unknown) => e);
    expect(refused).toMatchObject({ field: 'perPage', message: 'perPage must be an integer from 1 to 500' });
  });

  it('says when to retry a rate-limited call', async () => {
    answer(429, { code: 'RATE_LIMITED', message: 'rate limited' }, { 'retry-after': '12' });
    const error = await websites().catch((e: unknown) => e);
    expect((error as ApiError).message).toBe('Too many requests: try again in 12 s.');
  });

  it('reports a 401 as a lost session, unless the call expects one', async () => {
    const lost = vi.fn();
    onSessionLost(lost);
    answer(401, { code: 'UNAUTHENTICATED', message: 'session expired' });
    await expect(websites()).rejects.toMatchObject({ status: 401 });
    expect(lost).toHaveBeenCalledTimes(1);
    await expect(answerOf(publicApi.GET('/api/session'), { unauthenticatedIsAnswer: true })).rejects.toMatchObject({ status: 401 });
    expect(lost).toHaveBeenCalledTimes(1);
  });

  it('marks the API down when it cannot be reached or a proxy answers for it, and up again on the next answer', async () => {
    unreachable();
    const error = await websites().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, unreachable: true });
    expect(apiHealth.isDown()).toBe(true);
    answer(200, { websites: [] });
    await websites();
    expect(apiHealth.isDown()).toBe(false);
    answer(502, '<html>Bad gateway</html>');
    const proxy = await websites().catch((e: unknown) => e);
    expect(proxy).toMatchObject({ status: 502, message: 'The service could not answer (HTTP 502). Try again in a moment.' });
    expect(apiHealth.isDown()).toBe(true);
    // A refusal of the API itself (its envelope) is an answer: the API is up.
    answer(503, { code: 'STORE_UNAVAILABLE', message: 'ClickHouse cannot be reached' });
    await websites().catch(() => undefined);
    expect(apiHealth.isDown()).toBe(false);
  });

  it('leaves a cancelled call cancelled: no ApiError, the API not marked down', async () => {
    // As fetch does: refused at once when already aborted, else when it is.
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>((input) => {
        const { signal } = input as Request;
        return new Promise((_, reject) => {
          const abort = () => reject(new DOMException('aborted', 'AbortError'));
          if (signal.aborted) abort();
          else signal.addEventListener('abort', abort);
        });
      }),
    );
    const controller = new AbortController();
    const call = answerOf(publicApi.GET('/api/websites', { signal: controller.signal })).catch((e: unknown) => e);
    controller.abort();
    const error = await call;
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(apiHealth.isDown()).toBe(false);
  });

  it('while down, probes the liveness path and marks the API up once it answers', async () => {
    unreachable();
    await websites().catch(() => undefined);
    expect(apiHealth.isDown()).toBe(true);
    const changed = vi.fn();
    const unsubscribe = apiHealth.subscribe(changed);
    await expect(probeApi(vi.fn<typeof fetch>().mockRejectedValue(new TypeError('Failed to fetch')))).resolves.toBe(false);
    await expect(probeApi(vi.fn<typeof fetch>().mockResolvedValue(new Response('<html>Bad gateway</html>', { status: 502 })))).resolves.toBe(false);
    expect(apiHealth.isDown()).toBe(true);
    const live = vi.fn<typeof fetch>().mockResolvedValue(new Response('{"status":"ok"}', { status: 200 }));
    await expect(probeApi(live)).resolves.toBe(true);
    expect(live.mock.calls[0]![0]).toBe('/health/live');
    expect(apiHealth.isDown()).toBe(false);
    expect(changed).toHaveBeenCalledTimes(1);
    unsubscribe();
  });
});

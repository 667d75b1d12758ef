import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-error';
import { apiHealth, apiRequest, onSessionLost, probeApi, setCsrfToken } from './client';

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  vi.fn<typeof fetch>().mockResolvedValue(new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers }));

afterEach(() => {
  onSessionLost(undefined);
  setCsrfToken(undefined);
});

describe('apiRequest', () => {
  it('returns the JSON of a 2xx answer and sends the session cookie, not a token', async () => {
    const fetchImpl = answer(200, { ok: 1 });
    await expect(apiRequest('GET', '/api/x', undefined, { fetchImpl })).resolves.toEqual({ ok: 1 });
    const [, init] = fetchImpl.mock.calls[0]!;
    expect(init?.credentials).toBe('same-origin');
    expect(new Headers(init?.headers).get('authorization')).toBeNull();
  });

  it('sends X-CSRF-Token on every call but GET', async () => {
    setCsrfToken('csrf-1');
    const fetchImpl = answer(200, {});
    await apiRequest('POST', '/api/x', { a: 1 }, { fetchImpl });
    await apiRequest('DELETE', '/api/x', undefined, { fetchImpl });
    await apiRequest('GET', '/api/x', undefined, { fetchImpl });
    const sent = fetchImpl.mock.calls.map(([, init]) => new Headers(init?.headers).get('x-csrf-token'));
    expect(sent).toEqual(['csrf-1', 'csrf-1', null]);
    expect(fetchImpl.mock.calls[0]![1]?.body).toBe('{"a":1}');
  });

  it('turns the error envelope into an ApiError with its field and extra members', async () => {
    const fetchImpl = answer(409, { code: 'EXPORT_SLOT_BUSY', message: 'export 7 is running', exportId: 7 });
    const error = await apiRequest('POST', '/api/x', {}, { fetchImpl }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'EXPORT_SLOT_BUSY', message: 'export 7 is running', body: { exportId: 7 } });
    const refused = await apiRequest('POST', '/api/x', {}, { fetchImpl: answer(400, { code: 'VALIDATION_FAILED', message: 'perPage must be an integer from 1 to 500', field: 'perPage' }) }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ field: 'perPage', message: 'perPage must be an integer from 1 to 500' });
  });

  it('says when to retry a rate-limited call', async () => {
    const error = await apiRequest('GET', '/api/x', undefined, { fetchImpl: answer(429, { code: 'RATE_LIMITED', message: 'rate limited' }, { 'retry-after': '12' }) }).catch((e: unknown) => e);
    expect((error as ApiError).message).toBe('Too many requests: try again in 12 s.');
  });

  it('reports a 401 as a lost session, unless the call expects one', async () => {
    const lost = vi.fn();
    onSessionLost(lost);
    const envelope = { code: 'UNAUTHENTICATED', message: 'session expired' };
    await expect(apiRequest('GET', '/api/x', undefined, { fetchImpl: answer(401, envelope) })).rejects.toMatchObject({ status: 401 });
    expect(lost).toHaveBeenCalledTimes(1);
    await expect(apiRequest('GET', '/api/session', undefined, { fetchImpl: answer(401, envelope), unauthenticatedIsAnswer: true })).rejects.toMatchObject({ status: 401 });
    expect(lost).toHaveBeenCalledTimes(1);
  });

  it('marks the API down when it cannot be reached or a proxy answers for it, and up again on the next answer', async () => {
    const unreachable = vi.fn<typeof fetch>().mockRejectedValue(new TypeError('Failed to fetch'));
    const error = await apiRequest('GET', '/api/x', undefined, { fetchImpl: unreachable }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, unreachable: true });
    expect(apiHealth.isDown()).toBe(true);
    await apiRequest('GET', '/api/x', undefined, { fetchImpl: answer(200, {}) });
    expect(apiHealth.isDown()).toBe(false);
    const proxy = await apiRequest('GET', '/api/x', undefined, { fetchImpl: answer(502, '<html>Bad gateway</html>') }).catch((e: unknown) => e);
    expect(proxy).toMatchObject({ status: 502, message: 'The service could not answer (HTTP 502). Try again in a moment.' });
    expect(apiHealth.isDown()).toBe(true);
    // A refusal of the API itself (its envelope) is an answer: the API is up.
    await apiRequest('GET', '/api/x', undefined, { fetchImpl: answer(503, { code: 'STORE_UNAVAILABLE', message: 'ClickHouse cannot be reached' }) }).catch(() => undefined);
    expect(apiHealth.isDown()).toBe(false);
  });

  it('while down, probes the liveness path and marks the API up once it answers', async () => {
    await apiRequest('GET', '/api/x', undefined, { fetchImpl: vi.fn<typeof fetch>().mockRejectedValue(new TypeError('Failed to fetch')) }).catch(() => undefined);
    expect(apiHealth.isDown()).toBe(true);
    const changed = vi.fn();
    const unsubscribe = apiHealth.subscribe(changed);
    await expect(probeApi(vi.fn<typeof fetch>().mockRejectedValue(new TypeError('Failed to fetch')))).resolves.toBe(false);
    await expect(probeApi(answer(502, '<html>Bad gateway</html>'))).resolves.toBe(false);
    expect(apiHealth.isDown()).toBe(true);
    const live = answer(200, { status: 'ok' });
    await expect(probeApi(live)).resolves.toBe(true);
    expect(live.mock.calls[0]![0]).toBe('/health/live');
    expect(apiHealth.isDown()).toBe(false);
    expect(changed).toHaveBeenCalledTimes(1);
    unsubscribe();
  });
});

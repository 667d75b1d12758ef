import { ApiError, errorFromResponse, meansApiDown, NOT_LOADED_MESSAGE } from './api-error';

/**
 * The one place that talks HTTP. Session cookie (same origin), JSON both
 * ways, `X-CSRF-Token` on every call that is not GET/HEAD, the error
 * envelope turned into ApiError, a 401 reported once to whoever handles
 * sign-in, and whether the API answers at all kept for the banner.
 */

type Listener = () => void;

/** The CSRF token of the current session: in memory only, never in browser storage. */
let csrfToken: string | undefined;
let sessionLost: ((error: ApiError) => void) | undefined;
let apiDown = false;
const downListeners = new Set<Listener>();

export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

/** Called on a 401 from any call that did not say it expects one (the session expired or was ended). */
export function onSessionLost(handler: ((error: ApiError) => void) | undefined): void {
  sessionLost = handler;
}

export const apiHealth = {
  subscribe(listener: Listener): () => void {
    downListeners.add(listener);
    return () => downListeners.delete(listener);
  },
  isDown: (): boolean => apiDown,
};

/**
 * While the API is down: whether it answers again (its liveness path, which
 * counts against no rate limit). True once it does, and the banner goes.
 */
export async function probeApi(fetchImpl: typeof fetch = fetch): Promise<boolean> {
  try {
    const response = await fetchImpl('/health/live', { cache: 'no-store', credentials: 'same-origin' });
    if (!response.ok) return false;
  } catch {
    return false;
  }
  setApiDown(false);
  return true;
}

function setApiDown(down: boolean): void {
  if (down === apiDown) return;
  apiDown = down;
  for (const listener of downListeners) listener();
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** A 401 is an answer here (reading or opening the session), not a lost session. */
  unauthenticatedIsAnswer?: boolean;
  fetchImpl?: typeof fetch;
}

export async function apiRequest<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await (options.fetchImpl ?? fetch)(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    setApiDown(true);
    throw new ApiError(0, 'UNREACHABLE', NOT_LOADED_MESSAGE);
  }
  const text = await response.text().catch(() => '');
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const hasEnvelope = !!parsed && typeof parsed === 'object' && typeof (parsed as { code?: unknown }).code === 'string';
  setApiDown(meansApiDown(response.status, hasEnvelope));
  if (response.ok) return parsed as T;
  const error = errorFromResponse(response.status, parsed, response.headers.get('retry-after'));
  if (response.status === 401 && !options.unauthenticatedIsAnswer) sessionLost?.(error);
  throw error;
}

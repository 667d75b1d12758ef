import createClient from 'openapi-fetch';
import { ApiError, errorFromResponse, meansApiDown, NOT_LOADED_MESSAGE } from './api-error';
import type { paths } from './public-api';

/**
 * The one place that talks HTTP: an openapi-fetch client typed with the
 * paths generated from the public API's OpenAPI document (public-api.ts).
 * Session cookie (same origin), JSON both ways, `X-CSRF-Token` on every call
 * that is not GET/HEAD, the error envelope turned into ApiError, a 401
 * reported once to whoever handles sign-in, and whether the API answers at
 * all kept for the banner.
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

export function sessionCsrfToken(): string | undefined {
  return csrfToken;
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

/** The public API, same origin; the page's own address makes the URLs absolute (a Request needs one outside a browser). */
export const publicApi = createClient<paths>({
  baseUrl: location.origin,
  credentials: 'same-origin',
  headers: { accept: 'application/json' },
  // The global fetch at call time, not the one there was when this module loaded.
  fetch: (request) => fetch(request),
});

publicApi.use({
  onRequest({ request }) {
    if (request.method !== 'GET' && request.method !== 'HEAD' && csrfToken) request.headers.set('x-csrf-token', csrfToken);
  },
  onError({ request }) {
    // A cancelled call (a query no longer wanted) stays what it is: no banner.
    if (request.signal.aborted) return;
    setApiDown(true);
    return new ApiError(0, 'UNREACHABLE', NOT_LOADED_MESSAGE);
  },
});

export interface AnswerOptions {
  /** A 401 is an answer here (reading or opening the session), not a lost session. */
  unauthenticatedIsAnswer?: boolean;
}

/** What a call through `publicApi` resolves to: the answer's data, or its error body (the envelope, or the text of a proxy's page). */
type Answered<Data> = { data?: Data; error?: unknown; response: Response };

/** The data of a call's 2xx answer; any other answer as an ApiError (its 401 reported as a lost session unless the call expects one). */
export async function answerOf<Data>(call: Promise<Answered<Data>>, options: AnswerOptions = {}): Promise<Data> {
  const { data, error, response } = await call;
  const hasEnvelope = !!error && typeof error === 'object' && typeof (error as { code?: unknown }).code === 'string';
  setApiDown(meansApiDown(response.status, hasEnvelope));
  if (response.ok) return data as Data;
  const refusal = errorFromResponse(response.status, error, response.headers.get('retry-after'));
  if (response.status === 401 && !options.unauthenticatedIsAnswer) sessionLost?.(refusal);
  throw refusal;
}

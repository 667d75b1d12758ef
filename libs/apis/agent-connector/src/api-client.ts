/** One call of the public API, as a tool makes it: a path under the API's base, a JSON body for POSTs. */
export interface ApiRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: unknown;
}

/** The API's answer: its status and its JSON body (the error envelope `{code, message, field?}` when refused). */
export interface ApiAnswer {
  readonly status: number;
  readonly body: unknown;
}

/**
 * The public API as the connector sees it: every tool call becomes one (or
 * two) of its calls with the caller's credentials, so validation, roles,
 * rate limits and tenancy are the API's own.
 */
export type PublicApiClient = (request: ApiRequest) => Promise<ApiAnswer>;

function parseJson(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return { code: 'INTERNAL', message: `the API answered a body that is not JSON: ${text.slice(0, 200)}` };
  }
}

/** Headers every connector call carries: the caller's token, JSON, and the connector's channel. */
export function callHeaders(authorization: string, mark: Record<string, string>, hasBody: boolean): Record<string, string> {
  return { authorization, accept: 'application/json', ...(hasBody ? { 'content-type': 'application/json' } : {}), ...mark };
}

/** Over HTTP (the stdio connector, a separate process): `fetch` against the API's base URL. */
export function httpApiClient(baseUrl: string, authorization: string, mark: Record<string, string>): PublicApiClient {
  const base = baseUrl.replace(/\/+$/, '');
  return async ({ method, path, body }) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: callHeaders(authorization, mark, body !== undefined),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: parseJson(await response.text()) };
  };
}

/** What `inject` needs of fastify (in process: no socket, every hook and guard of the API still runs). */
export interface Injector {
  inject(options: { method: 'GET' | 'POST'; url: string; headers: Record<string, string>; payload?: string }): Promise<{ statusCode: number; body: string }>;
}

/** In the public-api process (`/mcp`): the API's own routes through fastify's `inject`. */
export function injectApiClient(fastify: Injector, authorization: string, mark: Record<string, string>): PublicApiClient {
  return async ({ method, path, body }) => {
    const answer = await fastify.inject({
      method,
      url: path,
      headers: callHeaders(authorization, mark, body !== undefined),
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: answer.statusCode, body: parseJson(answer.body) };
  };
}

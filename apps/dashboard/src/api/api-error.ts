/** A refusal or failure of an API call, in the public envelope's terms: `{code, message, field?}` plus extras. */
export class ApiError extends Error {
  constructor(
    /** HTTP status; 0 when the service could not be reached at all. */
    readonly status: number,
    readonly code: string,
    message: string,
    /** The request parameter to blame (`perPage`, `filters[0].val`, `urls[3]`…), when one is. */
    readonly field?: string,
    /** The whole error body: extra members such as `exportId` on 409 EXPORT_SLOT_BUSY. */
    readonly body: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get unreachable(): boolean {
    return this.status === 0;
  }
}

/** The banner's words while the API does not answer. */
export const UNREACHABLE_MESSAGE = 'The service cannot be reached right now. Check that it is running; the page reloads its data on its own once it answers.';
/** A call that failed for that reason, at its place on the page (the banner above says the rest). */
export const NOT_LOADED_MESSAGE = 'Not loaded: the service could not be reached.';

/** Plain words for answers that did not come with the envelope (a proxy's error page, an empty body). */
export function errorFromResponse(status: number, body: unknown, retryAfter: string | null): ApiError {
  const envelope = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const code = typeof envelope.code === 'string' ? envelope.code : status >= 500 ? 'UNAVAILABLE' : 'ERROR';
  let message = typeof envelope.message === 'string' && envelope.message ? envelope.message : fallbackMessage(status);
  if (code === 'RATE_LIMITED' && retryAfter) message = `Too many requests: try again in ${retryAfter} s.`;
  if (code === 'EXPLORER_BUSY' && retryAfter) message = `${message} (try again in ${retryAfter} s)`;
  const field = typeof envelope.field === 'string' ? envelope.field : undefined;
  return new ApiError(status, code, message, field, envelope);
}

function fallbackMessage(status: number): string {
  if (status === 401) return 'Your session has ended: sign in again.';
  if (status === 403) return 'You are not allowed to do this on this website.';
  if (status === 404) return 'Not found.';
  if (status === 429) return 'Too many requests: wait a moment and try again.';
  if (status >= 500) return `The service could not answer (HTTP ${status}). Try again in a moment.`;
  return `The request was refused (HTTP ${status}).`;
}

/** Whether an answer means the API itself is down (as opposed to a refusal of this one call). */
export function meansApiDown(status: number, hasEnvelope: boolean): boolean {
  return status === 0 || ((status === 502 || status === 503 || status === 504) && !hasEnvelope);
}

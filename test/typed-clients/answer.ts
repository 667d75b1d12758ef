/** One call a typed client made: which operation, and what the service answered (checked against the document by the test). */
export interface Answer {
  readonly method: 'get' | 'post' | 'delete';
  readonly path: string;
  readonly status: number;
  /** The error's code (public API) or message (daemon), when the answer is an error. */
  readonly error?: string;
}

/** What openapi-fetch resolves to, as far as an `Answer` needs it. */
export interface Fetched {
  readonly response: Response;
}

export function answer(method: Answer['method'], path: string, fetched: Fetched, error?: string): Answer {
  return { method, path, status: fetched.response.status, ...(error === undefined ? {} : { error }) };
}

/**
 * Stable error codes of the application. Each API maps them to its own
 * envelope and status in one exception filter.
 */
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'FEATURE_DISABLED',
  'NOT_FOUND',
  'STORE_UNAVAILABLE',
  'LOG_UNAVAILABLE',
  'PROJECTION_TIMEOUT',
  // Public API Data Explorer.
  'QUERY_TIMEOUT',
  'EXPLORER_BUSY',
  // Public API exports.
  'EXPORT_SLOT_BUSY',
  'EXPORT_NOT_FOUND',
  'DOWNLOAD_LINK_INVALID',
  'DOWNLOAD_LINK_EXPIRED',
  // Public API recache receipts.
  'RECEIPT_NOT_FOUND',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** The offending request parameter, when one is to blame. */
    readonly field?: string,
    /** Extra members of the error body, e.g. the `exportId` holding a busy export slot. */
    readonly details?: Readonly<Record<string, unknown>>,
    /** Seconds after which a retry may succeed: the answer's `Retry-After`. */
    readonly retryAfterS?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export function validationError(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', message, field);
}

/**
 * STORE_UNAVAILABLE saying which store, for the caller; the store's own error
 * (addresses of Redis or ClickHouse, server paths, engine messages) is the
 * error's `cause`: logged with it (pino prints causes), never in the answer.
 */
export function storeUnavailable(message: string, cause: unknown): AppError {
  return withCause(new AppError('STORE_UNAVAILABLE', message), cause);
}

/** `error` with `cause` attached as an Error's own (not enumerable: never serialised into an answer, printed by the logger). */
export function withCause<E extends Error>(error: E, cause: unknown): E {
  Object.defineProperty(error, 'cause', { value: cause, enumerable: false, writable: true, configurable: true });
  return error;
}


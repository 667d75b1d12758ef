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

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
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** The offending request parameter, when one is to blame. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export function validationError(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', message, field);
}

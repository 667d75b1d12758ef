import { AppError, assertNever, ErrorCode } from '@bpc/domain';
import { httpStatusOf, readinessReportOf, wrongContentTypeMessage } from '@bpc/platform';

/**
 * The public API's error envelope, for every error it answers:
 * `{code, message, field?}`. `code` is stable and machine-readable, `message`
 * is for humans, `field` names the offending request parameter when one is
 * to blame (`perPage`, `filters[0].val`). An `AppError`'s `details` add
 * members (a busy export slot's `exportId`).
 */
export interface PublicErrorBody {
  readonly code: string;
  readonly message: string;
  readonly field?: string;
}

export function publicStatusFor(code: ErrorCode): number {
  switch (code) {
    case 'VALIDATION_FAILED':
      return 400;
    case 'UNAUTHENTICATED':
      return 401;
    case 'FORBIDDEN':
    case 'FEATURE_DISABLED':
      return 403;
    case 'NOT_FOUND':
    case 'EXPORT_NOT_FOUND':
    case 'RECEIPT_NOT_FOUND':
      return 404;
    case 'EXPORT_SLOT_BUSY':
      return 409;
    case 'DOWNLOAD_LINK_INVALID':
      return 403;
    case 'DOWNLOAD_LINK_EXPIRED':
      return 410;
    case 'STORE_UNAVAILABLE':
    case 'LOG_UNAVAILABLE':
    case 'EXPLORER_BUSY':
      return 503;
    case 'PROJECTION_TIMEOUT':
    case 'QUERY_TIMEOUT':
      return 504;
    default:
      return assertNever(code);
  }
}

/** Status and body for any error thrown while serving a public request (sent as `contentType`). */
export function publicErrorResponse(error: unknown, contentType?: string): { status: number; body: PublicErrorBody | object; unexpected: boolean } {
  if (error instanceof AppError) {
    const body: PublicErrorBody = { ...error.details, code: error.code, message: error.message, ...(error.field === undefined ? {} : { field: error.field }) };
    return { status: publicStatusFor(error.code), body, unexpected: false };
  }
  const status = httpStatusOf(error);
  const report = readinessReportOf(error, status);
  if (report) return { status: 503, body: report, unexpected: false };
  if (status === 404) return { status, body: { code: 'NOT_FOUND', message: 'no such endpoint' }, unexpected: false };
  if (status === 405) return { status, body: { code: 'METHOD_NOT_ALLOWED', message: (error as Error).message }, unexpected: false };
  if (status === 413) return { status: 400, body: { code: 'VALIDATION_FAILED', message: 'request body too large', field: 'body' }, unexpected: false };
  if (status === 415) return { status: 400, body: { code: 'VALIDATION_FAILED', message: wrongContentTypeMessage(contentType), field: 'body' }, unexpected: false };
  if (status !== undefined && status >= 400 && status < 500) {
    const message = (error as { message?: string }).message ?? 'bad request';
    return { status: 400, body: { code: 'VALIDATION_FAILED', message: `invalid request body: ${message}`, field: 'body' }, unexpected: false };
  }
  return { status: 500, body: { code: 'INTERNAL', message: 'internal error' }, unexpected: true };
}

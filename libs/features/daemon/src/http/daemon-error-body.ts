import { AppError, assertNever, ErrorCode } from '@bpc/domain';
import { httpStatusOf, readinessReportOf, wrongContentTypeMessage } from '@bpc/platform';

/** The daemon API's error envelope (spec: `{status: "error", message}`). */
export interface DaemonErrorBody {
  readonly status: 'error';
  readonly message: string;
}

export function daemonErrorBody(message: string): DaemonErrorBody {
  return { status: 'error', message };
}

export function daemonStatusFor(code: ErrorCode): number {
  switch (code) {
    case 'VALIDATION_FAILED':
      return 400;
    case 'UNAUTHENTICATED':
      return 401;
    case 'FORBIDDEN':
    case 'FEATURE_DISABLED':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'STORE_UNAVAILABLE':
    case 'LOG_UNAVAILABLE':
    case 'PROJECTION_TIMEOUT':
      return 500;
    // The daemon has no exports and no Data Explorer: these never reach it.
    case 'QUERY_TIMEOUT':
    case 'EXPLORER_BUSY':
    case 'EXPORT_SLOT_BUSY':
    case 'EXPORT_NOT_FOUND':
    case 'RECEIPT_NOT_FOUND':
    case 'DOWNLOAD_LINK_INVALID':
    case 'DOWNLOAD_LINK_EXPIRED':
      return 500;
    default:
      return assertNever(code);
  }
}

/** Status and body for any error thrown while serving a daemon request (sent as `contentType`). */
export function daemonErrorResponse(error: unknown, contentType?: string): { status: number; body: DaemonErrorBody | object; unexpected: boolean } {
  if (error instanceof AppError) return { status: daemonStatusFor(error.code), body: daemonErrorBody(error.message), unexpected: false };
  const status = httpStatusOf(error);
  const report = readinessReportOf(error, status);
  if (report) return { status: 503, body: report, unexpected: false };
  if (status === 404) return { status, body: daemonErrorBody('invalid endpoint'), unexpected: false };
  if (status === 405) return { status, body: daemonErrorBody((error as Error).message), unexpected: false };
  if (status === 415) return { status: 400, body: daemonErrorBody(wrongContentTypeMessage(contentType)), unexpected: false };
  if (status !== undefined && status >= 400 && status < 500) {
    return { status: 400, body: daemonErrorBody(clientErrorMessage(error)), unexpected: false };
  }
  return { status: 500, body: daemonErrorBody('internal error'), unexpected: true };
}

/** Framework 4xx errors come from reading the body (parse errors, empty or oversized bodies). */
function clientErrorMessage(error: unknown): string {
  const e = error as { code?: string; message?: string; name?: string };
  const message = e.message ?? 'bad request';
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || /too large/i.test(message)) return 'request body too large';
  if (e.name === 'SyntaxError' || e.code?.startsWith('FST_ERR_CTP') || /JSON|body/i.test(message)) return `invalid JSON: ${message}`;
  return message;
}

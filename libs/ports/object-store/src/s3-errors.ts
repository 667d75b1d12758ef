import { ObjectGoneError, ObjectStoreUnavailableError } from './object-store.port';

/** What went wrong talking to an S3-compatible store, in the words readiness and logs report. */
export type S3Failure = 'gone' | 'bucket missing' | 'access denied' | 'unreachable' | 'timed out' | 'throttled' | 'server error' | 'refused';

interface SdkError {
  readonly name?: string;
  readonly code?: string;
  readonly message?: string;
  readonly errors?: readonly { readonly code?: string }[];
  readonly $metadata?: { readonly httpStatusCode?: number };
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ECONNABORTED']);
const TIMED_OUT = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException', 'ETIMEDOUT', 'ESOCKETTIMEDOUT']);
const THROTTLED = new Set(['SlowDown', 'Throttling', 'ThrottlingException', 'TooManyRequestsException', 'RequestLimitExceeded', 'ServiceUnavailable']);
const DENIED = new Set(['AccessDenied', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'ExpiredToken', 'InvalidToken', 'CredentialsProviderError']);

/**
 * Sorts an error of the SDK (or of the socket under it) into one failure.
 * `subject` says whether a 404 means the object or the bucket is missing: a
 * HEAD answers a bare `NotFound` for both.
 */
export function classifyS3Error(error: unknown, subject: 'object' | 'bucket'): S3Failure {
  const e = (error ?? {}) as SdkError;
  const name = e.name ?? '';
  const code = codeOf(e);
  const status = e.$metadata?.httpStatusCode;
  if (name === 'NoSuchBucket') return 'bucket missing';
  if (name === 'NoSuchKey' || (status === 404 && subject === 'object')) return 'gone';
  if (status === 404) return 'bucket missing';
  if (DENIED.has(name) || status === 403) return 'access denied';
  if (THROTTLED.has(name) || status === 429 || status === 503) return 'throttled';
  if (TIMED_OUT.has(name) || TIMED_OUT.has(code)) return 'timed out';
  if (UNREACHABLE.has(code) || /socket hang up|ECONNREFUSED|ECONNRESET/.test(e.message ?? '')) return 'unreachable';
  if (status !== undefined && status >= 500) return 'server error';
  return 'refused';
}

/**
 * The error a caller sees: `ObjectGoneError` for a missing object, else
 * `ObjectStoreUnavailableError` naming the store, the operation and why, the
 * SDK's error as its cause. Access denied and a missing bucket are reported as
 * unavailable too: to a caller the store is unusable until an operator acts,
 * and the message says which.
 */
export function s3Error(error: unknown, context: { readonly operation: string; readonly key?: string; readonly store: string; readonly subject?: 'object' | 'bucket' }): Error {
  const failure = classifyS3Error(error, context.subject ?? 'object');
  const what = context.key === undefined ? context.operation : `${context.operation} ${context.key}`;
  if (failure === 'gone') return new ObjectGoneError(`object ${context.key ?? ''} is gone from ${context.store}`, { cause: error });
  const detail = detailOf(error);
  const reason = `${failure === 'refused' ? 'refused the request' : failure}${detail ? ` (${detail})` : ''}`;
  return new ObjectStoreUnavailableError(`object store ${context.store}: ${what} failed: ${reason}`, { cause: error });
}

function codeOf(error: SdkError): string {
  return error.code ?? error.errors?.find((inner) => inner.code)?.code ?? '';
}

/** The socket's code (ECONNREFUSED) or the S3 error's name (NoSuchBucket), whichever says more than "Error". */
function detailOf(error: unknown): string | undefined {
  const e = (error ?? {}) as SdkError;
  const code = codeOf(e);
  if (code) return code;
  return e.name && !/^(Aggregate)?Error$/.test(e.name) ? e.name : undefined;
}

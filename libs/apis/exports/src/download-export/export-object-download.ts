import type { Readable } from 'node:stream';
import { AppError, storeUnavailable } from '@bpc/domain';
import { ObjectGoneError } from '@bpc/object-store';

/** The longest a presigned URL we hand out stays valid, whatever is left of the signed link. */
export const PRESIGNED_URL_MAX_S = 900;

const GONE_MESSAGE = 'the export file is no longer available';

/**
 * Seconds a presigned URL for a link valid until `linkExpiresS` (Unix
 * seconds) may live: what is left of the link, at most
 * `PRESIGNED_URL_MAX_S`, at least 1.
 */
export function presignedLifetimeS(linkExpiresS: number, nowMs: number): number {
  return Math.max(1, Math.min(PRESIGNED_URL_MAX_S, Math.floor(linkExpiresS - nowMs / 1000)));
}

/**
 * The answer to an object store failure while serving a download: a missing
 * object is a file whose retention ended (410 DOWNLOAD_LINK_EXPIRED); any
 * other failure (unreachable store, an I/O error) is 503 STORE_UNAVAILABLE,
 * the store's own message kept as the cause (logged, never answered).
 */
export function downloadErrorOf(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ObjectGoneError) return new AppError('DOWNLOAD_LINK_EXPIRED', GONE_MESSAGE);
  return storeUnavailable('the export file store cannot be reached; try the link again later', error);
}

export function fileGoneError(): AppError {
  return new AppError('DOWNLOAD_LINK_EXPIRED', GONE_MESSAGE);
}

/**
 * Resolves once `stream` has bytes to give (or has ended), rejects with its
 * first error: a store that fails to open the object fails the request
 * before any header is sent, instead of cutting a 200 short.
 */
export function readableOrFailed(stream: Readable): Promise<Readable> {
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      stream.off('readable', onReadable);
      stream.off('error', settle);
      if (error) {
        stream.destroy();
        reject(error);
      } else {
        resolve(stream);
      }
    };
    const onReadable = () => settle();
    stream.on('readable', onReadable);
    stream.on('error', settle);
  });
}

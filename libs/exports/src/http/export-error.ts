/** Codes the export endpoints add to the public envelope. */
export type ExportErrorCode = 'EXPORT_SLOT_BUSY' | 'EXPORT_NOT_FOUND' | 'DOWNLOAD_LINK_INVALID' | 'DOWNLOAD_LINK_EXPIRED';

const STATUS: Readonly<Record<ExportErrorCode, number>> = {
  EXPORT_SLOT_BUSY: 409,
  EXPORT_NOT_FOUND: 404,
  DOWNLOAD_LINK_INVALID: 403,
  DOWNLOAD_LINK_EXPIRED: 410,
};

/**
 * An export refusal with its stable code. Kept apart from `AppError` for now
 * (its code union is switched exhaustively by the public envelope, another
 * team's file); ExportsExceptionFilter maps it into the same envelope.
 */
export class ExportError extends Error {
  readonly status: number;
  constructor(
    readonly code: ExportErrorCode,
    message: string,
    /** Extra members of the body, e.g. the `exportId` holding the slot. */
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'ExportError';
    this.status = STATUS[code];
  }
}

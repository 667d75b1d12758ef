import type { ExportOrigin } from '@bpc/events';
import { checkDownload, DOWNLOAD_PATH, isoWithOffset, signDownload } from '../domain/download-link';
import type { ExportState } from '../domain/export-record';

export const RUNNING_MESSAGE = 'The export is running: poll GET …/data-explorer/export/{exportId}/status or send the same export call again.';

/** What every record carries, whatever its status. */
interface ExportProvenance {
  startedFrom: ExportOrigin;
  /** When the export was created, in the form of `expiresAt`. */
  createdAt: string;
}

/** The export record of the specification, per status, with where and when it was started. */
export type ExportRecordView =
  | ({ status: 'running'; exportId: number; message: string } & ExportProvenance)
  | ({
      status: 'completed';
      exportId: number;
      rowCount: number;
      sizeBytes: number;
      columns: string[];
      maxRows: number;
      filename: string;
      window: { start: string; end: string };
      downloadUrl: string;
      expiresAt: string;
    } & ExportProvenance)
  | ({ status: 'failed'; exportId: number; error: string; errorMessage: string } & ExportProvenance);

export interface LinkMint {
  readonly key: Buffer;
  readonly baseUrl: string;
  readonly nowMs: number;
  readonly ttlSeconds: number;
  /** The file is removed then; a link never outlives it. */
  readonly retainedUntilMs: number;
}

/**
 * `window` as dates: the first day and the last day the rows fall in (the
 * window's end is exclusive, so its last millisecond decides the last day).
 * A fresh link is minted on every read.
 */
export function exportRecordView(record: ExportState, mint: LinkMint): ExportRecordView {
  const provenance: ExportProvenance = { startedFrom: record.startedFrom, createdAt: isoWithOffset(Date.parse(record.createdAt)) };
  switch (record.status) {
    case 'running':
      return { status: 'running', exportId: record.exportId, message: RUNNING_MESSAGE.replace('{exportId}', String(record.exportId)), ...provenance };
    case 'failed':
      return { status: 'failed', exportId: record.exportId, error: record.error ?? 'FAILED', errorMessage: record.errorMessage ?? 'the export failed', ...provenance };
    case 'completed': {
      const expiresSec = Math.floor(Math.min(mint.nowMs + mint.ttlSeconds * 1000, mint.retainedUntilMs) / 1000);
      const sig = signDownload(mint.key, record.exportId, record.fileId, expiresSec);
      return {
        status: 'completed',
        exportId: record.exportId,
        rowCount: record.rowCount ?? 0,
        sizeBytes: record.sizeBytes ?? 0,
        columns: [...record.columns],
        maxRows: record.maxRows,
        filename: record.filename,
        window: { start: record.window.start.slice(0, 10), end: new Date(Date.parse(record.window.end) - 1).toISOString().slice(0, 10) },
        downloadUrl: `${mint.baseUrl}${DOWNLOAD_PATH}/${record.exportId}?expires=${expiresSec}&sig=${sig}`,
        expiresAt: isoWithOffset(expiresSec * 1000),
        ...provenance,
      };
    }
  }
}

export { checkDownload };

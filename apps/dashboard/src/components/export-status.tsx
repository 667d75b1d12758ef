import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ApiError } from '../api/api-error';
import { api } from '../api/endpoints';
import type { ExportRecord } from '../api/types';
import { formatBytes, formatDay, formatInteger } from '../lib/format';
import { Time } from './time';

export const EXPORT_POLL_MS = 2000;

export const exportStatusKey = (website: string, exportId: number) => ['export', website, exportId] as const;

/** Polls an export's status while it runs; shows its progress, its failure in words, or its download link. */
export function ExportStatus({ website, exportId, initial }: { website: string; exportId: number; initial?: ExportRecord }) {
  const query = useQuery({
    queryKey: exportStatusKey(website, exportId),
    queryFn: ({ signal }) => api.exports.status(website, exportId, signal),
    initialData: initial,
    // A completed record's link is signed afresh on each read: read again when it is older than a few minutes.
    staleTime: 60_000,
    refetchInterval: (q) => (q.state.data?.status === 'running' || (!q.state.data && !q.state.error) ? EXPORT_POLL_MS : false),
  });
  if (query.error) {
    const notYours = query.error instanceof ApiError && query.error.code === 'EXPORT_NOT_FOUND';
    return (
      <p className="form-error" role="alert">
        {notYours ? `Export #${exportId} was started by another user of your account (or on another website): its status is theirs to see. The slot frees when it ends.` : query.error.message}
      </p>
    );
  }
  if (!query.data) return <p role="status">Reading export #{exportId}…</p>;
  return <ExportRecordView record={query.data} />;
}

export function ExportRecordView({ record }: { record: ExportRecord }) {
  switch (record.status) {
    case 'running':
      return (
        <div className="card" role="status" aria-live="polite">
          <strong>Export #{record.exportId} is running</strong>
          {record.createdAt ? (
            <span className="muted small">
              {' '}
              · started <Time iso={record.createdAt} />
            </span>
          ) : null}
          <div>
            <progress aria-label={`Export ${record.exportId} in progress`} /> <span className="muted small">checked every {EXPORT_POLL_MS / 1000} s</span>
          </div>
        </div>
      );
    case 'failed':
      return (
        <div className="form-error" role="alert">
          Export #{record.exportId} failed ({record.error}): {record.errorMessage}. Start it again to retry.
        </div>
      );
    case 'completed':
      return (
        <div className="notice" role="status">
          <strong>Export #{record.exportId} is ready</strong>: {formatInteger(record.rowCount)} rows, {formatBytes(record.sizeBytes)}, days {formatDay(record.window.start)} to {formatDay(record.window.end)}.{' '}
          <a href={record.downloadUrl} download={record.filename}>
            Download {record.filename}
          </a>{' '}
          <span className="muted small">
            (link valid until <Time iso={record.expiresAt} />)
          </span>
          {record.rowCount === record.maxRows ? <div className="small">The file reached its row limit ({formatInteger(record.maxRows)}): it may be cut short.</div> : null}
        </div>
      );
  }
}

export function ExportsLink({ website }: { website: string }) {
  return <Link to={`/w/${encodeURIComponent(website)}/exports`}>All your exports</Link>;
}

import { useState } from 'react';
import { useMutation, useQuery, type UseMutationResult } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ApiError } from '../api/api-error';
import { api } from '../api/endpoints';
import type { ExportRecord } from '../api/types';
import { findExport, holderSearchOrder } from '../lib/find-export';
import { formatBytes, formatDay, formatInteger } from '../lib/format';
import { useSession } from '../session';
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

/**
 * The export holding the account's slot (409 EXPORT_SLOT_BUSY names its id
 * only): found on this website or another of the user's, its status shown
 * live and a link that opens it on the Exports page.
 */
export function SlotHolder({ website, exportId }: { website: string; exportId: number }) {
  const session = useSession();
  const order = holderSearchOrder(website, session.websites);
  const found = useQuery({
    queryKey: ['slot-holder', exportId, order],
    queryFn: ({ signal }) => findExport(exportId, order, (w, id) => api.exports.status(w, id, signal)),
    retry: false,
    staleTime: Infinity,
  });
  const elsewhere = found.data && found.data.website !== website ? ` on website ${found.data.website}` : '';
  return (
    <div className="stack">
      <p className="form-error" role="alert">
        Your account runs one export at a time, and export #{exportId}
        {elsewhere} holds the slot now. Start yours again when it has ended.
      </p>
      {found.error ? <p className="form-error">{found.error.message}</p> : null}
      {found.isPending ? <p role="status">Looking for export #{exportId}…</p> : null}
      {found.isSuccess && !found.data ? <p>Export #{exportId} was started by another user of your account: its status is theirs to see. The slot frees when it ends.</p> : null}
      {found.data ? (
        <>
          <ExportStatus key={`${found.data.website}-${exportId}`} website={found.data.website} exportId={exportId} initial={found.data.record} />
          <p>
            <Link to={`/w/${encodeURIComponent(found.data.website)}/exports?open=${exportId}`}>Open export #{exportId} in your exports</Link>
          </p>
        </>
      ) : null}
    </div>
  );
}

/** A CSV export started from a results page: the start, and the export it shows (the one started, or the one holding the account's slot). */
export interface ExportStart {
  start: UseMutationResult<ExportRecord, ApiError, void>;
  shown?: { id: number; initial?: ExportRecord; busy?: boolean };
}

/** Starts an export with `run`; on 409 EXPORT_SLOT_BUSY it shows the holder of the slot instead. */
export function useExportStart(run: () => Promise<ExportRecord>): ExportStart {
  const [shown, setShown] = useState<ExportStart['shown']>();
  const start = useMutation<ExportRecord, ApiError>({
    mutationFn: run,
    onSuccess: (record) => setShown({ id: record.exportId, initial: record }),
    onError: (error) => {
      const holder = error.body.exportId;
      if (error.code === 'EXPORT_SLOT_BUSY' && typeof holder === 'number') setShown({ id: holder, busy: true });
      else setShown(undefined);
    },
  });
  return { start, shown };
}

/** "Export CSV" and the link to all exports, for a results toolbar. */
export function ExportButton({ website, exporting }: { website: string; exporting: ExportStart }) {
  const { start } = exporting;
  return (
    <>
      <button type="button" onClick={() => start.mutate()} disabled={start.isPending}>
        {start.isPending ? 'Starting export…' : 'Export CSV'}
      </button>
      <ExportsLink website={website} />
    </>
  );
}

/** Under the toolbar: why the export did not start, or its live status (or that of the export holding the slot). */
export function ExportOutcome({ website, exporting }: { website: string; exporting: ExportStart }) {
  const { start, shown } = exporting;
  return (
    <>
      {start.error && start.error.code !== 'EXPORT_SLOT_BUSY' ? (
        <p className="form-error" role="alert">
          {start.error.message}
        </p>
      ) : null}
      {shown ? (
        <div className="stack export-panel">
          {shown.busy ? <SlotHolder key={shown.id} website={website} exportId={shown.id} /> : <ExportStatus key={shown.id} website={website} exportId={shown.id} initial={shown.initial} />}
        </div>
      ) : null}
    </>
  );
}

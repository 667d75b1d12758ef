import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { api } from '../api/endpoints';
import type { ExportRecord } from '../api/types';
import { ExportStatus } from '../components/export-status';
import { Time } from '../components/time';
import { formatBytes, formatDay, formatInteger } from '../lib/format';

const STARTED_FROM: Record<string, string> = { api: 'API', dashboard: 'Dashboard', agent: 'Agent connector' };

/** The user's exports on this website, newest first, with a fresh download link for the completed ones. `?open=<id>` shows one's status. */
export default function ExportsPage() {
  const { website = '' } = useParams();
  const [params] = useSearchParams();
  const open = Number(params.get('open')) || undefined;
  const history = useQuery({
    queryKey: ['exports', website],
    queryFn: ({ signal }) => api.exports.history(website, signal),
    refetchInterval: (q) => (q.state.data?.exports.some((e) => e.status === 'running') ? 3000 : false),
  });
  return (
    <>
      <h1>Exports</h1>
      <p className="muted">
        CSV exports you started on this website, from the <Link to={`/w/${encodeURIComponent(website)}/explorer`}>Data Explorer</Link>, the <Link to={`/w/${encodeURIComponent(website)}/renders`}>Renders</Link> page, the API or an agent connector. Your account runs one export at a time. Download links are signed afresh each time this page reads them.
      </p>
      {open ? (
        <section aria-label={`Export ${open}`}>
          <ExportStatus website={website} exportId={open} />
        </section>
      ) : null}
      {history.error ? (
        <p className="form-error" role="alert">
          {history.error.message}
        </p>
      ) : history.isPending ? (
        <p className="page-status" role="status">
          Loading your exports…
        </p>
      ) : history.data.exports.length === 0 ? (
        <p>No exports yet. Run a query in the Data Explorer and press “Export CSV”.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Your exports</caption>
            <thead>
              <tr>
                <th scope="col">Export</th>
                <th scope="col">Status</th>
                <th scope="col">Started from</th>
                <th scope="col">Created</th>
                <th scope="col" className="num">
                  Rows
                </th>
                <th scope="col" className="num">
                  Size
                </th>
                <th scope="col">Days</th>
                <th scope="col">File</th>
              </tr>
            </thead>
            <tbody>
              {history.data.exports.map((record) => (
                <ExportRow key={record.exportId} record={record} website={website} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

function ExportRow({ record, website }: { record: ExportRecord; website: string }) {
  return (
    <tr>
      <td>
        <Link to={`/w/${encodeURIComponent(website)}/exports?open=${record.exportId}`}>#{record.exportId}</Link>
      </td>
      <td>{record.status === 'failed' ? <span title={record.errorMessage}>failed ({record.error})</span> : record.status}</td>
      <td>{record.startedFrom ? (STARTED_FROM[record.startedFrom] ?? record.startedFrom) : '–'}</td>
      <td>{record.createdAt ? <Time iso={record.createdAt} /> : '–'}</td>
      <td className="num">{record.status === 'completed' ? formatInteger(record.rowCount) : '–'}</td>
      <td className="num">{record.status === 'completed' ? formatBytes(record.sizeBytes) : '–'}</td>
      <td className="nowrap">{record.status === 'completed' ? `${formatDay(record.window.start)} – ${formatDay(record.window.end)}` : '–'}</td>
      <td>
        {record.status === 'completed' ? (
          <a href={record.downloadUrl} download={record.filename}>
            {record.filename}
          </a>
        ) : record.status === 'failed' ? (
          record.errorMessage
        ) : (
          <progress aria-label={`Export ${record.exportId} in progress`} />
        )}
      </td>
    </tr>
  );
}

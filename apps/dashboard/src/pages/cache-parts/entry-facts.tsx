import { Time } from '../../components/time';
import { formatBytes, formatMs } from '../../lib/format';

/** What a cache entry holds, as both the URL lookup and the entry search show it; a dimension with nothing cached has none of it. */
interface EntryFacts {
  status?: string;
  statusCode?: number;
  renderedAt?: string;
  expiresAt?: string;
  bytes?: number;
  renderMs?: number;
}

/** Column headers of EntryFactCells, in the same order. */
export function EntryFactHeaders() {
  return (
    <>
      <th scope="col">Status</th>
      <th scope="col" className="num">
        HTTP status
      </th>
      <th scope="col">Rendered</th>
      <th scope="col">Expires</th>
      <th scope="col" className="num">
        Size
      </th>
      <th scope="col" className="num">
        Render time
      </th>
    </>
  );
}

/** Status, HTTP status, rendered and expiry times, size and render time of one entry; '–' for what it does not have. */
export function EntryFactCells({ entry }: { entry: EntryFacts }) {
  return (
    <>
      <td>{entry.status ?? '–'}</td>
      <td className="num">{entry.statusCode ?? '–'}</td>
      <td>{entry.renderedAt ? <Time iso={entry.renderedAt} /> : '–'}</td>
      <td>{entry.expiresAt ? <Time iso={entry.expiresAt} /> : '–'}</td>
      <td className="num">{entry.bytes !== undefined ? formatBytes(entry.bytes) : '–'}</td>
      <td className="num">{entry.renderMs !== undefined ? formatMs(entry.renderMs) : '–'}</td>
    </>
  );
}

import type { ReactNode } from 'react';
import { formatInteger } from '../lib/format';

/** A two-column table: what (a bot as the row's header, or a page URL) and its requests. */
export function RequestsTable({ caption, heading, urls = false, rows }: { caption: string; heading: string; urls?: boolean; rows: { key: string; requests: number; label: ReactNode }[] }) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{heading}</th>
            <th scope="col" className="num">
              Requests
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              {urls ? <td className="url">{row.label}</td> : <th scope="row">{row.label}</th>}
              <td className="num">{formatInteger(row.requests)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

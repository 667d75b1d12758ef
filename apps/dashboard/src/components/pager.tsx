import type { ReactNode } from 'react';
import type { PageMeta } from '../api/types';
import { formatInteger } from '../lib/format';

/** Previous / next over a paged answer's `meta`, with its totals (`withTotal={false}` where the page says them already); `children` for a rows-per-page control. */
export function Pager({ label, meta, onPage, withTotal = true, children }: { label: string; meta: PageMeta; onPage: (page: number) => void; withTotal?: boolean; children?: ReactNode }) {
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" disabled={meta.page <= 1} onClick={() => onPage(meta.page - 1)}>
        Previous
      </button>
      <span>
        Page {formatInteger(meta.page)} of {formatInteger(Math.max(meta.totalPages, 1))}
        {withTotal ? ` · ${formatInteger(meta.total)} in all` : null}
      </span>
      <button type="button" disabled={meta.page >= meta.totalPages} onClick={() => onPage(meta.page + 1)}>
        Next
      </button>
      {children}
    </nav>
  );
}

/** "Rows per page" for a Pager: the choices the account allows, and the page's own size among them. */
export function PerPageSelect({ value, choices, current, invalid, onChange }: { value: number; choices: number[]; current: number; invalid?: boolean; onChange: (perPage: number) => void }) {
  return (
    <>
      <label htmlFor="perPage">Rows per page</label>
      <select id="perPage" value={value} aria-invalid={invalid || undefined} onChange={(e) => onChange(Number(e.target.value))}>
        {[...new Set([...choices, current])].sort((a, b) => a - b).map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </>
  );
}

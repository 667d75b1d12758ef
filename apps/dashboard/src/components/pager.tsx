import type { ReactNode } from 'react';
import type { PageMeta } from '../api/types';
import { formatInteger } from '../lib/format';

/** Previous / next over a paged answer's `meta`, with its totals; `children` for a rows-per-page control. */
export function Pager({ label, meta, onPage, children }: { label: string; meta: PageMeta; onPage: (page: number) => void; children?: ReactNode }) {
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" disabled={meta.page <= 1} onClick={() => onPage(meta.page - 1)}>
        Previous
      </button>
      <span>
        Page {formatInteger(meta.page)} of {formatInteger(Math.max(meta.totalPages, 1))} · {formatInteger(meta.total)} in all
      </span>
      <button type="button" disabled={meta.page >= meta.totalPages} onClick={() => onPage(meta.page + 1)}>
        Next
      </button>
      {children}
    </nav>
  );
}

import { createHash } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';
import type { ResolvedQuery } from '@bpc/explorer';

/**
 * "The same question": two export bodies are the same export when their
 * canonical forms are equal. The canonical form is the query with every
 * default resolved (mode, columns in their order, sort, sortDir, period,
 * compPeriod, compCategory), filters as resolved (field, op, val, val2; their
 * order does not change the rows, so they are sorted), plus `maxRows` and the
 * final `filename`, serialised with sorted keys. `waitSeconds` is not part of
 * it (it changes how long the call waits, not the file).
 *
 * The period enters as the string asked (`30d`, `2026-11-01,2026-11-07`), not
 * as the window it resolves to, and so does `compPeriod` (left out when it
 * was omitted: the window before `period` then follows from `period`, while
 * the window it resolves to moves with the clock): the window is frozen when the export is
 * created, so repeating a relative period rejoins that export (running, or
 * completed and still retained) and gets its frozen window back. A caller who
 * wants a fresh `30d` after that changes the body (another filename) or waits
 * for the retention to end.
 */
export interface ExportQuestion {
  readonly explorerKey: string;
  readonly mode: string;
  readonly columns: readonly string[];
  readonly filters: readonly { field: string; op: string; val?: string | number; val2?: number }[];
  readonly period: string;
  readonly compPeriod?: string;
  readonly compCategory?: string;
  readonly sort: string;
  readonly sortDir: string;
  readonly maxRows: number;
  readonly filename: string;
}

export function exportQuestion(query: ResolvedQuery, maxRows: number, filename: string): ExportQuestion {
  const filters = query.filters
    .map((f) => ({ field: f.field, op: f.op, ...(f.val !== undefined ? { val: f.val } : {}), ...(f.val2 !== undefined ? { val2: f.val2 } : {}) }))
    .sort((a, b) => (canonicalJson(a) < canonicalJson(b) ? -1 : canonicalJson(a) > canonicalJson(b) ? 1 : 0));
  return {
    explorerKey: query.explorer.key,
    mode: query.mode.key,
    columns: [...query.columns],
    filters,
    period: query.period,
    ...(query.comparison ? { compPeriod: query.comparison.asked ? query.comparison.period : undefined, compCategory: query.comparison.category } : {}),
    sort: query.sort,
    sortDir: query.sortDir,
    maxRows,
    filename,
  };
}

/** Hex SHA-256 of the canonical form, scoped to one user on one website. */
export function questionHash(userId: string, websiteId: string, question: ExportQuestion): string {
  return createHash('sha256').update(canonicalJson({ userId, websiteId, question })).digest('hex');
}

/**
 * JSON with object keys sorted at every level (arrays keep their order, undefined
 * members are left out): safe-stable-stringify sorts keys by UTF-16 code unit, so
 * hashes of questions stored before it came in stay the same.
 */
export function canonicalJson(value: object): string {
  return stringify(value);
}

export const MAX_FILENAME = 200;

/**
 * Invisible format characters (Unicode category Cf: bidirectional overrides
 * and isolates, zero-width spaces and joiners, the BOM …) and the bidi
 * controls: a name holding them can show as another (`\u202etxt.exe` reads
 * `exe.txt`).
 */
const FORMAT_CHARACTERS = /[\p{Cf}\p{Bidi_Control}]/gu;

/**
 * A safe file name: format characters are removed; control characters, path
 * separators and characters that Windows or a `Content-Disposition` header
 * would trip on become `_`, leading dots and surrounding spaces go, and
 * `.csv` is appended (once). An empty result falls back to
 * `<explorerKey>-export`.
 */
export function sanitiseFilename(requested: string | undefined, explorerKey: string): string {
  const base = (requested ?? '')
    .normalize('NFC')
    .replace(FORMAT_CHARACTERS, '')
    .replace(/\.csv$/i, '')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f"*/:<>?\\|;]/g, '_')
    .trim()
    .replace(/^\.+/, '');
  return `${base.length > 0 ? base : `${explorerKey}-export`}.csv`;
}

/**
 * The `Content-Disposition` of a download: an ASCII fallback and the UTF-8
 * name (RFC 6266), format characters removed from both again, for records an
 * older build stored with them.
 */
export function attachmentDisposition(filename: string): string {
  const name = filename.replace(FORMAT_CHARACTERS, '');
  const ascii = name.replace(/[^\x20-\x7e]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

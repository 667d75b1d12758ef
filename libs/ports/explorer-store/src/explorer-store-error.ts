/**
 * The one error both explorer store adapters reject with, so callers never
 * branch on the engine: ClickHouse's own message, numeric code and type name
 * (e.g. 62 / `SYNTAX_ERROR`) when the engine reported them.
 */
export class ExplorerStoreError extends Error {
  override readonly name = 'ExplorerStoreError';

  constructor(
    message: string,
    readonly clickhouseCode?: number,
    readonly clickhouseType?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

// ClickHouse formats errors as `Code: 62. DB::Exception: <message> (SYNTAX_ERROR)`,
// sometimes followed by a version note; chDB keeps that text, clickhouse-js
// strips the prefix and exposes code/type as fields.
const CODE_PREFIX = /^\s*Code:\s*(\d+)\.\s*(?:DB::Exception:\s*)?/;
const TYPE_SUFFIX = /\s*\(([A-Z][A-Z0-9_]+)\)(?:\s*\(version [^)]*\))?\s*\.?\s*$/;

interface EngineErrorFields {
  readonly message?: unknown;
  readonly clickhouseCode?: unknown;
  readonly code?: unknown;
  readonly type?: unknown;
}

/** Maps any chDB or clickhouse-js failure to an `ExplorerStoreError`. */
export function toExplorerStoreError(err: unknown): ExplorerStoreError {
  if (err instanceof ExplorerStoreError) return err;
  const fields = (typeof err === 'object' && err !== null ? err : {}) as EngineErrorFields;
  const raw = typeof fields.message === 'string' ? fields.message : String(err);
  const prefix = CODE_PREFIX.exec(raw);
  const suffix = TYPE_SUFFIX.exec(raw);
  const message = raw.replace(CODE_PREFIX, '').replace(TYPE_SUFFIX, '').trim() || raw;
  const code = numericCode(fields.clickhouseCode) ?? numericCode(fields.code) ?? numericCode(prefix?.[1]);
  const type = (typeof fields.type === 'string' && fields.type) || suffix?.[1];
  return new ExplorerStoreError(message, code, type || undefined, { cause: err });
}

function numericCode(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

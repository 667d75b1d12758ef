import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { type ClickhouseFailure, failure } from './clickhouse-errors';

/** One statement as the HTTP interface received it. */
export interface StatementRequest {
  /** The `query` URL parameter (an insert's statement, when the body holds its data). */
  readonly queryParam: string;
  readonly database: string;
  readonly queryId: string | undefined;
  /** `param_<name>` values, still in ClickHouse's escaped text form: the engine binds them as a server does. */
  readonly params: Readonly<Record<string, string>>;
  /** Engine settings, HTTP-only ones removed. */
  readonly settings: Readonly<Record<string, string>>;
  /** Output format of a statement without a FORMAT clause. */
  readonly defaultFormat: string;
  /** `enable_http_compression=1`: the client accepts a compressed response. */
  readonly compressResponse: boolean;
}

/** URL parameters of the HTTP interface that are not settings. */
const NOT_SETTINGS = new Set(['query', 'database', 'query_id', 'default_format', 'user', 'password', 'quota_key', 'role', 'session_id', 'session_timeout', 'session_check', 'compress', 'decompress', 'buffer_size', 'stacktrace', 'client_protocol_version']);

/**
 * Settings only ClickHouse's HTTP layer reads (the list chdb/connection drops
 * too): the engine would refuse them as unknown.
 */
const HTTP_ONLY_SETTINGS = new Set([
  'wait_end_of_query',
  'send_progress_in_http_headers',
  'http_response_buffer_size',
  'http_headers_progress_interval_ms',
  'http_send_progress_interval_ms',
  'enable_http_compression',
  'http_zlib_compression_level',
  'http_response_compression_method',
  'http_native_compression_disable_checksumming_on_decompress',
  'http_exception_tagging',
]);

const SETTING_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const QUERY_ID = /^[\x20-\x7e]{1,256}$/;
const FORMAT_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

export function parseStatementRequest(url: URL, headers: IncomingHttpHeaders): StatementRequest {
  const search = url.searchParams;
  const params: Record<string, string> = {};
  const settings: Record<string, string> = {};
  for (const [name, value] of search) {
    if (name.startsWith('param_')) {
      const param = name.slice('param_'.length);
      if (!PARAM_NAME.test(param)) throw failure(456, 'UNKNOWN_QUERY_PARAMETER', `Bad query parameter name ${JSON.stringify(param)}`);
      params[param] = value;
    } else if (!NOT_SETTINGS.has(name) && !HTTP_ONLY_SETTINGS.has(name)) {
      if (!SETTING_NAME.test(name)) throw failure(115, 'UNKNOWN_SETTING', `Unknown setting ${JSON.stringify(name)}`);
      settings[name] = value;
    }
  }
  const queryId = search.get('query_id') || undefined;
  // Both are echoed in response headers: only what a header may carry passes.
  if (queryId !== undefined && !QUERY_ID.test(queryId)) throw failure(36, 'BAD_ARGUMENTS', 'query_id must be 1 to 256 printable ASCII characters');
  const defaultFormat = search.get('default_format') ?? header(headers, 'x-clickhouse-format') ?? 'TabSeparated';
  if (!FORMAT_NAME.test(defaultFormat)) throw failure(73, 'UNKNOWN_FORMAT', `Unknown format ${JSON.stringify(defaultFormat)}`);
  return {
    queryParam: search.get('query') ?? '',
    database: search.get('database') ?? header(headers, 'x-clickhouse-database') ?? 'default',
    queryId,
    params,
    settings,
    defaultFormat,
    compressResponse: search.get('enable_http_compression') === '1',
  };
}

export interface Credentials {
  readonly username: string;
  readonly password: string;
}

/** The user the request names (Basic auth, `X-ClickHouse-User`/`-Key`, or `user`/`password` parameters), `default` with no password otherwise. */
export function credentialsOf(url: URL, headers: IncomingHttpHeaders): Credentials {
  const basic = /^Basic\s+(.+)$/i.exec(header(headers, 'authorization') ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon < 0 ? { username: decoded, password: '' } : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  const username = header(headers, 'x-clickhouse-user') ?? url.searchParams.get('user') ?? 'default';
  const password = header(headers, 'x-clickhouse-key') ?? url.searchParams.get('password') ?? '';
  return { username, password };
}

/** Undefined when `given` matches `expected`; compared in constant time (digests of equal length). */
export function checkCredentials(given: Credentials, expected: Credentials): ClickhouseFailure | undefined {
  const digest = (c: Credentials) => createHash('sha256').update(`${c.username.length}:${c.username}:${c.password}`).digest();
  if (timingSafeEqual(digest(given), digest(expected))) return undefined;
  return failure(516, 'AUTHENTICATION_FAILED', `${given.username}: Authentication failed: password is incorrect, or there is no user with such name`);
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

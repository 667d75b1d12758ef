import { randomBytes } from 'node:crypto';

/** A failure as ClickHouse reports it: numeric code, type name and the whole `Code: N. DB::Exception: … (TYPE)` text. */
export class ClickhouseFailure extends Error {
  readonly code: number;
  readonly type: string;
  readonly text: string;

  constructor(code: number, type: string, text: string) {
    super(text);
    this.code = code;
    this.type = type;
    this.text = text;
  }
}

const ENGINE_ERROR = /^\s*Code:\s*(\d+)\..*\(([A-Z][A-Z0-9_]+)\)/s;

/** chDB keeps ClickHouse's error text; anything else becomes the server's catch-all (1001 STD_EXCEPTION). */
export function toClickhouseFailure(err: unknown): ClickhouseFailure {
  if (err instanceof ClickhouseFailure) return err;
  const message = err instanceof Error ? err.message : String(err);
  const match = ENGINE_ERROR.exec(message);
  if (match) return new ClickhouseFailure(Number(match[1]), match[2], message.trim());
  return failure(1001, 'STD_EXCEPTION', message);
}

export function failure(code: number, type: string, message: string): ClickhouseFailure {
  return new ClickhouseFailure(code, type, `Code: ${code}. DB::Exception: ${message}. (${type})`);
}

// The subset of ClickHouse's exceptionCodeToHTTPStatus the explorer can meet;
// the client only tells 2xx from the rest, people reading logs see the difference.
const FORBIDDEN = new Set(['AUTHENTICATION_FAILED', 'UNKNOWN_USER', 'WRONG_PASSWORD']);
const NOT_FOUND = new Set(['UNKNOWN_TABLE', 'UNKNOWN_DATABASE', 'UNKNOWN_FUNCTION', 'UNKNOWN_IDENTIFIER', 'UNKNOWN_TYPE']);
const BAD_REQUEST = new Set([
  'SYNTAX_ERROR',
  'BAD_ARGUMENTS',
  'BAD_QUERY_PARAMETER',
  'UNKNOWN_QUERY_PARAMETER',
  'UNKNOWN_SETTING',
  'UNKNOWN_FORMAT',
  'READONLY',
  'INCORRECT_DATA',
  'TYPE_MISMATCH',
  'ILLEGAL_TYPE_OF_ARGUMENT',
  'NUMBER_OF_ARGUMENTS_DOESNT_MATCH',
  'CANNOT_PARSE_TEXT',
  'CANNOT_PARSE_INPUT_ASSERTION_FAILED',
  'CANNOT_PARSE_DATETIME',
  'CANNOT_PARSE_NUMBER',
  'CANNOT_PARSE_QUOTED_STRING',
  'CANNOT_PARSE_ESCAPE_SEQUENCE',
  'UNKNOWN_COMPRESSION_METHOD',
]);

export function httpStatusOf(failed: ClickhouseFailure): number {
  if (failed.type === 'REQUIRED_PASSWORD') return 401;
  if (FORBIDDEN.has(failed.type)) return 403;
  if (NOT_FOUND.has(failed.type)) return 404;
  if (BAD_REQUEST.has(failed.type)) return 400;
  return 500;
}

/** The value of `X-ClickHouse-Exception-Tag`: marks an error written after the rows began (ClickHouse 25.11+). */
export function newExceptionTag(): string {
  return randomBytes(8).toString('hex');
}

/**
 * The block ClickHouse 25.11+ appends when a query fails after its response
 * began: the client finds `\r\n` before a newline, then reads the message
 * back from its length (message bytes plus the newline).
 */
export function exceptionTrailer(failed: ClickhouseFailure, tag: string): Buffer {
  const message = Buffer.from(failed.text, 'utf8');
  return Buffer.concat([
    Buffer.from(`\r\n__exception__\r\n${tag}\n`),
    message,
    Buffer.from(`\n${message.length + 1} ${tag}\r\n__exception__\r\n`),
  ]);
}

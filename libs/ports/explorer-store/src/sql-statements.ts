import { ExplorerStoreError } from './explorer-store-error';

/**
 * Splits a SQL script into statements on `;`, ignoring semicolons inside
 * quoted strings, quoted identifiers and comments, so DDL files can hold
 * several statements (a ClickHouse server runs one statement per request).
 * Comment-only fragments (e.g. a trailing note) are dropped.
 */
export function splitSqlStatements(script: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let hasCode = false;
  let i = 0;
  while (i < script.length) {
    const ch = script[i];
    const next = script[i + 1];
    if (ch === '-' && next === '-') {
      i = skipLineComment(script, i);
    } else if (ch === '/' && next === '*') {
      i = skipBlockComment(script, i);
    } else if (ch === "'" || ch === '"' || ch === '`') {
      i = skipQuoted(script, i, ch);
      hasCode = true;
    } else if (ch === ';') {
      if (hasCode) statements.push(script.slice(start, i).trim());
      start = i + 1;
      hasCode = false;
      i += 1;
    } else {
      if (!/\s/.test(ch)) hasCode = true;
      i += 1;
    }
  }
  if (hasCode) statements.push(script.slice(start).trim());
  return statements;
}

function skipLineComment(script: string, from: number): number {
  const end = script.indexOf('\n', from);
  return end === -1 ? script.length : end + 1;
}

function skipBlockComment(script: string, from: number): number {
  const end = script.indexOf('*/', from + 2);
  if (end === -1) throw new Error(`unterminated block comment at offset ${from}`);
  return end + 2;
}

// ClickHouse escapes a quote inside a quoted token either with a backslash or
// by doubling it; both forms are skipped here.
function skipQuoted(script: string, from: number, quote: string): number {
  let i = from + 1;
  while (i < script.length) {
    const ch = script[i];
    if (ch === '\\') {
      i += 2;
    } else if (ch === quote && script[i + 1] === quote) {
      i += 2;
    } else if (ch === quote) {
      return i + 1;
    } else {
      i += 1;
    }
  }
  throw new Error(`unterminated ${quote} quote at offset ${from}`);
}

/**
 * chDB (and chdb/connection) run `a; b` as two statements where a ClickHouse
 * server refuses it; both adapters refuse it up front so code that works
 * standalone also works against a cluster.
 */
export function assertSingleStatement(sql: string): void {
  if (countStatements(sql) > 1) {
    throw new ExplorerStoreError('Multi-statements are not allowed', 62, 'SYNTAX_ERROR');
  }
}

// Unterminated quotes or comments are left for the engine to report as its
// own syntax error.
function countStatements(sql: string): number {
  try {
    return splitSqlStatements(sql).length;
  } catch {
    return 1;
  }
}

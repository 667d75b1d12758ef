import type { AppConfig } from '@bpc/config';
import { AppError, validationError } from '@bpc/domain';
import { ExplorerStoreError } from '@bpc/explorer-store';
import { STATEMENT_REFUSALS, type StatementRefusal } from './statement-refusal';

/**
 * What the operator is told when the engine refused or stopped a statement:
 * the engine's own reason, under the error code the public API answers
 * with. The engine's read-only mode and limits decide, except for what that
 * mode lets through (`statementRefused`).
 */
export function operatorSqlError(error: unknown, limits: AppConfig['operator_sql']): unknown {
  if (!(error instanceof ExplorerStoreError)) return error;
  const engine = `${error.message}${error.clickhouseType ? ` (${error.clickhouseType})` : ''}`;
  switch (error.clickhouseType) {
    case 'READONLY':
    case 'ACCESS_DENIED':
      return new AppError('FORBIDDEN', `the engine runs this console read-only and refused the statement: ${engine}`, 'sql');
    case 'TIMEOUT_EXCEEDED':
      return new AppError('QUERY_TIMEOUT', `the statement ran longer than ${limits.max_execution_ms} ms (operator_sql.max_execution_ms): ${engine}`, 'sql');
    case 'TOO_MANY_ROWS_OR_BYTES':
      return validationError('sql', `the result has more than ${limits.max_result_rows} rows (operator_sql.max_result_rows): aggregate, or add a LIMIT; ${engine}`);
    default:
      // An engine error (syntax, unknown table …) is about the statement; one without a code is the store failing.
      return error.clickhouseCode !== undefined ? validationError('sql', engine) : new AppError('STORE_UNAVAILABLE', `explorer store unavailable: ${error.message}`);
  }
}

/** A statement the console refused itself, before the engine saw it (`refusalOf`). */
export function statementRefused(refusal: StatementRefusal): AppError {
  const { what, why } = STATEMENT_REFUSALS[refusal];
  return new AppError('FORBIDDEN', `the console refuses ${what} before the statement reaches the engine: ${why}`, 'sql');
}

import type { AppConfig } from '@bpc/config';
import { AppError, validationError } from '@bpc/domain';
import { admittedSettings, AdmissionRefusedError, ExplorerAdmission, ExplorerStore, ExplorerStoreError, QueryParams, settingsClause } from '@bpc/explorer-store';
import { explorerBusyError } from '../admission/explorer-busy-error';
import type { ResolvedFilter } from '../resolve-query/resolve-query';

/** What every statement of one query shares: its filters (to name a bad pattern), its account and its deadline. */
export interface AdmittedStatement {
  readonly filters: readonly ResolvedFilter[];
  readonly accountId: string;
  readonly deadlineMs: number;
}

export interface StatementRunner {
  readonly store: ExplorerStore;
  readonly admission: ExplorerAdmission;
  readonly config: AppConfig;
}

/**
 * One statement once admitted, stopped by the engine when the budget left
 * runs out, at low priority when its account has several in the engine (in
 * its own SETTINGS clause, so nothing leaks into a pooled connection).
 * Refusals become EXPLORER_BUSY, store failures STORE_UNAVAILABLE, a
 * statement stopped for its time QUERY_TIMEOUT; a pattern the engine's RE2
 * still refuses (JavaScript-only escapes such as `\u00e9` pass the `re2`
 * package) becomes a 400 on its filter. Shared by the Data Explorer and the
 * insights, so both answer alike.
 */
export async function runAdmittedStatement<T = Record<string, unknown>>(
  { store, admission, config }: StatementRunner,
  { filters, accountId, deadlineMs }: AdmittedStatement,
  sql: string,
  params: QueryParams,
): Promise<T[]> {
  const timeout = config.explorer.query_timeout_ms;
  try {
    return await admission.run(accountId, deadlineMs, (admitted) => store.query<T>(`${sql} SETTINGS ${settingsClause(admittedSettings(admitted, store.inProcess))}`, params));
  } catch (error) {
    if (error instanceof AdmissionRefusedError) throw explorerBusyError(error, config, `${timeout} ms (explorer.query_timeout_ms)`);
    if (!(error instanceof ExplorerStoreError)) throw error;
    const regexAt = filters.findIndex((f) => f.op === 'regex' || f.op === 'not_regex');
    if (regexAt >= 0 && error.clickhouseType === 'CANNOT_COMPILE_REGEXP') throw validationError(`filters[${regexAt}].val`, `invalid regular expression (RE2 syntax): ${error.message}`);
    if (error.clickhouseType === 'TIMEOUT_EXCEEDED') {
      throw new AppError('QUERY_TIMEOUT', `the query took longer than ${timeout} ms from its arrival, waiting for the engine included (explorer.query_timeout_ms): choose a shorter period or add filters`);
    }
    throw new AppError('STORE_UNAVAILABLE', 'explorer store unavailable');
  }
}

import type { AppConfig } from '@bpc/config';
import { AppError, assertNever } from '@bpc/domain';
import type { AdmissionRefusedError } from '@bpc/explorer-store';

/** 503 EXPLORER_BUSY with `Retry-After` for a statement the admission queue refused before it ran. */
export function explorerBusyError(refusal: AdmissionRefusedError, config: AppConfig, budget: string): AppError {
  const retry = `retry after ${refusal.retryAfterS} s`;
  switch (refusal.reason) {
    case 'account_full':
      return new AppError('EXPLORER_BUSY', `this account already has ${config.explorer.account_max_statements} Data Explorer statements waiting or running (explorer.account_max_statements): ${retry}`, undefined, undefined, refusal.retryAfterS);
    case 'wait_expired':
      return new AppError('EXPLORER_BUSY', `the engine had no free place for this query within ${budget}, counted from its arrival: ${retry}`, undefined, undefined, refusal.retryAfterS);
    default:
      return assertNever(refusal.reason);
  }
}

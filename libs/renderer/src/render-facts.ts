import { assertNever } from '@bpc/domain';
import type { RenderOutcome, RenderRecordedPayload } from '@bpc/events';
import type { KeptReason, RefreshOutcome } from './page-refresher.port';

/** What the refresh's caller does after a failure: the scheduler retries or gives up; the edge's miss has no second attempt. */
export type AfterFailure = 'retry' | 'give-up' | 'edge';

const KEPT_OUTCOMES: Readonly<Record<KeptReason, RenderOutcome>> = {
  'render-wins': 'kept_fresher',
  blank: 'kept_blank',
  'soft-404': 'kept_soft_404',
  smaller: 'kept_smaller',
};

const UNSTORED_REASON = 'the page could not be stored (cache store error)';

/** The render history's view of one refresh (`RenderRecorded`'s outcome, reason, status, time, bytes and mode). */
export type RenderFact = Pick<RenderRecordedPayload, 'mode' | 'outcome' | 'reason' | 'statusCode' | 'renderMs' | 'bytes'>;

/**
 * How a refresh goes into the render history. A failure that will not be
 * tried again, that timed out while the page had an entry, is `kept_timeout`
 * (the old entry stays served); other final failures are `gave_up`
 * (scheduler) or `failed` (edge miss), with the failure as the reason.
 * `jobMode` stands in when the refresh could not resolve its mode.
 */
export function renderFactOf(outcome: RefreshOutcome, after: AfterFailure, jobMode: 'render' | 'bypass' | undefined): RenderFact {
  switch (outcome.kind) {
    case 'stored':
      return { mode: outcome.cacheKind, outcome: 'stored', reason: '', statusCode: outcome.statusCode, renderMs: outcome.durationMs, bytes: outcome.bytes };
    case 'kept':
      return { mode: outcome.mode, outcome: KEPT_OUTCOMES[outcome.reason], reason: outcome.detail, statusCode: outcome.statusCode, renderMs: outcome.durationMs, bytes: outcome.bytes };
    case 'failed': {
      const page = outcome.unstored?.page;
      const keptOnTimeout = after !== 'retry' && outcome.timedOut === true && outcome.entryKept === true;
      const failed: RenderOutcome = keptOnTimeout ? 'kept_timeout' : after === 'retry' ? 'retry_scheduled' : after === 'give-up' ? 'gave_up' : 'failed';
      return {
        mode: outcome.mode ?? jobMode ?? 'render',
        outcome: failed,
        // The store's own error names server paths and engines: it stays in the logs, the history (customer-facing) says what happened.
        reason: page ? UNSTORED_REASON : outcome.reason,
        statusCode: page?.statusCode ?? 0,
        renderMs: outcome.durationMs,
        bytes: page?.body.length ?? 0,
      };
    }
    default:
      return assertNever(outcome);
  }
}

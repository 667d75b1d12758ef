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
export type RenderFact = Pick<RenderRecordedPayload, 'mode' | 'outcome' | 'reason' | 'statusCode' | 'renderMs' | 'bytes' | 'facts' | 'changes'>;

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
      return { mode: outcome.cacheKind, outcome: 'stored', reason: '', statusCode: outcome.statusCode, renderMs: outcome.durationMs, bytes: outcome.bytes, facts: outcome.facts, ...(outcome.changes ? { changes: outcome.changes } : {}) };
    case 'kept':
      return { mode: outcome.mode, outcome: KEPT_OUTCOMES[outcome.reason], reason: outcome.detail, statusCode: outcome.statusCode, renderMs: outcome.durationMs, bytes: outcome.bytes, ...(outcome.facts ? { facts: outcome.facts } : {}) };
    case 'failed': {
      const page = outcome.unstored?.page;
      const keptOnTimeout = after !== 'retry' && outcome.timedOut === true && outcome.entryKept === true;
      const failed: RenderOutcome = keptOnTimeout ? 'kept_timeout' : after === 'retry' ? 'retry_scheduled' : after === 'give-up' ? 'gave_up' : 'failed';
      return {
        mode: outcome.mode ?? jobMode ?? 'render',
        outcome: failed,
        // The store's own error names server paths and engines: it stays in the logs, the history (customer-facing) says what happened.
        reason: page ? UNSTORED_REASON : customerFailureReason(outcome.reason),
        statusCode: page?.statusCode ?? 0,
        renderMs: outcome.durationMs,
        bytes: page?.body.length ?? 0,
        ...(outcome.facts ? { facts: outcome.facts } : {}),
      };
    }
    default:
      return assertNever(outcome);
  }
}

/**
 * Failure texts the renderer writes itself, with nothing of the service's
 * network in them: shown to customers as they are.
 */
const OWN_FAILURE_PREFIXES = [
  'timed out',
  'origin answered ',
  'unexpected status ',
  'the page signalled ',
  'empty render (status ',
  'empty body (status ',
  'navigated away (',
  'redirect ',
  'render larger than ',
  'body larger than ',
  'blank page',
  'no main response',
  'unknown host ',
  'unknown dimension ',
  'invalid url ',
];

export const REFUSED_REASON = "refused: the page's address is not one renders may connect to (an internal or denied address)";
export const CRASHED_REASON = 'the page crashed its tab';
export const INTERNAL_FAILURE_REASON = 'the render failed on our side (an internal error; the service logs have the details)';

/**
 * A failure as the render history (and so the API, receipts, the dashboard
 * and alert bodies, all customer-facing) shows it. The renderer's own phrases
 * pass (a timeout without its example request's URL); an egress refusal
 * loses the address the name resolved to; a network error keeps its code
 * (`ECONNREFUSED`, `net::ERR_NAME_NOT_RESOLVED`) but not the address or origin
 * URL it names; anything else (a Redis or browser protocol error, an
 * exception's text) becomes one generic phrase. Operators keep the detail:
 * the refresher logs it, and the queue's RecacheRetryScheduled /
 * RecacheGaveUp events carry it unchanged.
 */
export function customerFailureReason(reason: string): string {
  // The example request of a page that kept loading is fetched from the origin: its URL may name an internal origin address. Without it, reasons also group.
  if (reason.startsWith('timed out')) return reason.replace(/, e\.g\. .*\)$/s, ')');
  if (OWN_FAILURE_PREFIXES.some((prefix) => reason.startsWith(prefix))) return reason;
  if (reason.startsWith('refused')) return REFUSED_REASON;
  if (reason.startsWith(CRASHED_REASON)) return CRASHED_REASON;
  const chromium = /net::(ERR_[A-Z0-9_]+)/.exec(reason);
  if (chromium) return `the page could not be loaded (${chromium[1]})`;
  const system = /\b(E(?:CONNREFUSED|CONNRESET|CONNABORTED|HOSTUNREACH|NETUNREACH|NOTFOUND|AI_AGAIN|TIMEDOUT|PIPE|PROTO)|UND_ERR_[A-Z_]+|ERR_TLS_[A-Z_]+|CERT_[A-Z_]+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE)\b/.exec(reason);
  if (system) return `the origin could not be reached (${system[1]})`;
  if (reason === 'fetch failed') return 'the origin could not be reached';
  return INTERNAL_FAILURE_REASON;
}

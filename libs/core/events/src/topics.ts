/**
 * Topic names. Queue events are keyed by host id so each host's history stays
 * in order; bot requests are keyed by website.
 */
export const TOPICS = {
  queue: 'bpc.queue.v1',
  botRequests: 'bpc.bot-requests.v1',
  searchPerformance: 'bpc.search-performance.v1',
  /** Users, roles and API tokens (one key: total order). */
  identity: 'bpc.identity.v1',
  /** CSV exports of the Data Explorer, keyed by account. */
  exports: 'bpc.exports.v1',
  /** Render history: every render and origin fetch, keyed by host id. */
  renders: 'bpc.renders.v1',
  /** Website alerts and their webhook deliveries, keyed by website id. */
  alerts: 'bpc.alerts.v1',
} as const;

export type TopicName = (typeof TOPICS)[keyof typeof TOPICS];

import type { Interval } from '../insights/insights-catalog';
import type { WindowView } from '../insights/insights.query';
import type { QueryBody, QueryFilterInput } from '../resolve-query/query-body';

/** Render history's discovery for one website (its host's dimensions; limits are per account). */
export class DiscoverRenders {
  constructor(
    readonly websiteId: string,
    readonly accountId: string,
  ) {}
}

/** One page of render history (mode `renders` or `reasons`), as a Data Explorer query reads. */
export class QueryRenders {
  constructor(
    readonly websiteId: string,
    readonly accountId: string,
    readonly body: QueryBody,
    /** When the request arrived (ms on the app's clock): the query's time budget counts from here. */
    readonly receivedAtMs: number,
  ) {}
}

/** A timeseries body after type checks (the DTO). */
export interface RendersTimeseriesBody {
  readonly period?: string;
  readonly filters?: readonly QueryFilterInput[];
  readonly interval?: string;
}

/** Renders per hour or day by outcome class, with render-time percentiles. */
export class GetRendersTimeseries {
  constructor(
    readonly websiteId: string,
    readonly accountId: string,
    readonly body: RendersTimeseriesBody,
    readonly receivedAtMs: number,
  ) {}
}

export interface RendersTimeseriesPoint {
  /** Bucket start, ISO 8601 UTC. */
  readonly t: string;
  readonly renders: number;
  readonly stored: number;
  readonly kept: number;
  readonly failed: number;
  /** Exact median render time in the bucket, ms; null when it has no render. */
  readonly renderMsP50: number | null;
  readonly renderMsP95: number | null;
}

export interface RendersTimeseriesResult {
  readonly meta: { readonly period: string; readonly window: WindowView; readonly interval: Interval };
  readonly points: RendersTimeseriesPoint[];
}

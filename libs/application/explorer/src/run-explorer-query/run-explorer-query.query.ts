import type { QueryBody } from '../resolve-query/query-body';

export class RunExplorerQuery {
  constructor(
    readonly websiteId: string,
    readonly accountId: string,
    readonly explorerKey: string,
    readonly body: QueryBody,
    /** When the request arrived (ms on the app's clock): the query's time budget counts from here. */
    readonly receivedAtMs: number,
  ) {}
}

export type ExplorerRow = Record<string, unknown>;

export interface ExplorerQueryMeta {
  readonly explorerKey: string;
  readonly mode: string;
  readonly page: number;
  readonly perPage: number;
  readonly total: number;
  readonly totalPages: number;
  readonly columns: readonly string[];
  readonly sort: string;
  readonly sortDir: string;
  readonly period: string;
  readonly window: { readonly start: string; readonly end: string };
  readonly compPeriod?: string;
  readonly compWindow?: { readonly start: string; readonly end: string };
  readonly compCategory?: string;
}

export interface ExplorerQueryResult {
  readonly data: ExplorerRow[];
  readonly meta: ExplorerQueryMeta;
}

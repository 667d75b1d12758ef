/** A query body after type checks (the DTO): every field still unresolved and possibly absent. */
export interface QueryFilterInput {
  readonly field: string;
  readonly op?: string;
  readonly val?: unknown;
  readonly val2?: unknown;
}

export interface QueryBody {
  readonly mode?: string;
  readonly columns?: readonly string[];
  readonly filters?: readonly QueryFilterInput[];
  readonly period?: string;
  readonly compPeriod?: string;
  readonly compCategory?: string;
  readonly sort?: string;
  readonly sortDir?: string;
  readonly page?: number;
  readonly perPage?: number;
}

import { validationError } from '@bpc/domain';

/** The highest `page` a paged listing takes. */
const PAGE_MAX = 1_000_000;

/**
 * `page` and `perPage` of a query string, their defaults when absent. Values
 * come as text: "2" is page 2; "2.5", "x" or a value out of range is a 400
 * VALIDATION_FAILED naming the parameter.
 */
export function pagingParams(query: Readonly<Record<string, unknown>>, perPage: { readonly default: number; readonly max: number }): { page: number; perPage: number } {
  return { page: integerParam(query, 'page', 1, PAGE_MAX), perPage: integerParam(query, 'perPage', perPage.default, perPage.max) };
}

function integerParam(query: Readonly<Record<string, unknown>>, name: string, fallback: number, max: number): number {
  const raw = query[name];
  if (raw === undefined) return fallback;
  const value = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= 1 && value <= max)) throw validationError(name, `${name} must be an integer from 1 to ${max}`);
  return value;
}

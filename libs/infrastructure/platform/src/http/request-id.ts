import { randomUUID } from 'node:crypto';

/** The header a caller (or a proxy in front) may name its request by, and in which every answer names it. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** Ids from outside are taken only as short plain tokens: they land in log lines and must not carry anything else. */
const SANE_REQUEST_ID = /^[\w.:-]{1,64}$/;

/** The request's id: a sane incoming `X-Request-Id` (a proxy's, so both logs agree), else a fresh UUID. */
export function requestIdOf(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

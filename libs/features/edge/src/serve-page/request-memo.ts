import { BoundedMemo } from '@bpc/support';

/** Distinct URLs, User-Agents and Accept-Encodings whose parse/match results are remembered (per memo; the dimension memo is per host); longer keys are never kept. */
const MEMO_CAPACITY = 10_000;
const MEMO_MAX_KEY = 1_024;

/** A memo of one derivation from a request header or target, bounded so that bots sending endless distinct values cannot grow it. */
export function requestMemo<V>(compute: (key: string) => V): BoundedMemo<V> {
  return new BoundedMemo(compute, MEMO_CAPACITY, MEMO_MAX_KEY);
}

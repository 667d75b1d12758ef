import type { ObjectKey } from './object-store.port';

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const MAX_KEY_BYTES = 512;

/** Throws a RangeError unless `key` is a safe relative key (see `ObjectKey`). */
export function assertObjectKey(key: ObjectKey): void {
  if (typeof key !== 'string' || key.length === 0 || Buffer.byteLength(key) > MAX_KEY_BYTES || !key.split('/').every((segment) => SEGMENT.test(segment))) {
    throw new RangeError(`invalid object key ${JSON.stringify(key)}: relative path of [A-Za-z0-9._-] segments expected`);
  }
}

/** Same rule for a listing prefix, which may be '' or end with '/'. */
export function assertObjectPrefix(prefix: ObjectKey): void {
  if (prefix === '') return;
  assertObjectKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
}

import type { EncodedEventBatch } from '@bpc/events';

/**
 * An `EncodedEventBatch` as it crosses to a worker thread: its ids joined
 * into one string and its keys as indexes into the distinct keys. A batch of
 * a thousand events cloned thousands of small strings, which cost the sending
 * thread more than copying the batch's bytes; this clones two strings and the
 * distinct keys. Its typed arrays are its own copies (of just the batch's
 * bytes and ends: cloning a view copies its whole buffer), which
 * `transferables` hands over without copying them again; the batch packed
 * keeps its own memory (it is appended again if the log refuses it).
 */
export interface PackedEventBatch {
  readonly type: string;
  readonly version: number;
  readonly bytes: Uint8Array;
  readonly ends: Uint32Array;
  readonly ids: string;
  readonly idEnds: Uint32Array;
  readonly keys: readonly string[];
  readonly keyIndexes: Uint32Array;
}

export function packEventBatch(batch: EncodedEventBatch): PackedEventBatch {
  const n = batch.ids.length;
  const idEnds = new Uint32Array(n);
  const keyIndexes = new Uint32Array(n);
  const keys: string[] = [];
  const indexOf = new Map<string, number>();
  for (let i = 0, end = 0; i < n; i++) {
    end += batch.ids[i].length;
    idEnds[i] = end;
    const key = batch.keys[i];
    let index = indexOf.get(key);
    if (index === undefined) {
      index = keys.push(key) - 1;
      indexOf.set(key, index);
    }
    keyIndexes[i] = index;
  }
  return { type: batch.type, version: batch.version, bytes: copyOf(batch.bytes), ends: copyOf(batch.ends), ids: batch.ids.join(''), idEnds, keys, keyIndexes };
}

/** The memory of a packed batch's typed arrays, to transfer rather than clone (they are its own). */
export function transferables(packed: PackedEventBatch): ArrayBuffer[] {
  return [packed.bytes.buffer, packed.ends.buffer, packed.idEnds.buffer, packed.keyIndexes.buffer] as ArrayBuffer[];
}

/** %TypedArray%.prototype.slice, which copies (`Buffer#slice` does not). */
const typedArraySlice = (Object.getPrototypeOf(Uint8Array.prototype) as { slice(this: ArrayBufferView): ArrayBufferView }).slice;

/** A copy of just the view's elements, in memory of its own. */
function copyOf<T extends Uint8Array | Uint32Array>(view: T): T {
  return typedArraySlice.call(view) as T;
}

export function unpackEventBatch(packed: PackedEventBatch): EncodedEventBatch {
  const n = packed.idEnds.length;
  const ids = new Array<string>(n);
  const keys = new Array<string>(n);
  for (let i = 0, start = 0; i < n; start = packed.idEnds[i], i++) {
    ids[i] = packed.ids.slice(start, packed.idEnds[i]);
    keys[i] = packed.keys[packed.keyIndexes[i]];
  }
  return { type: packed.type, version: packed.version, bytes: packed.bytes, ends: packed.ends, ids, keys };
}

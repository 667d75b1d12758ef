/**
 * Key → partition, the way Kafka's default partitioner does it (murmur2 of the
 * UTF-8 key, sign bit masked, modulo the partition count). The file log uses
 * the same function so a key lands on the same partition number in both modes.
 */
const SEED = 0x9747b28c;
const M = 0x5bd1e995;

/** Kafka's murmur2 (32-bit) of the key bytes, as a signed 32-bit integer. */
export function murmur2(key: string | Buffer): number {
  const data = typeof key === 'string' ? Buffer.from(key, 'utf8') : key;
  const length = data.length;
  let h = (SEED ^ length) | 0;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  const tail = length & 3;
  if (tail === 3) h ^= data[whole + 2] << 16;
  if (tail >= 2) h ^= data[whole + 1] << 8;
  if (tail >= 1) h = Math.imul(h ^ data[whole], M);
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

/**
 * Items `0 … count - 1` grouped by the partition of their key, each group in
 * item order, groups in the order their partitions first appear; a key met
 * again is not hashed again (a batch's keys repeat), and one met right
 * before is not even looked up (consecutive items mostly share it).
 */
export function groupByPartition<T>(count: number, keyOf: (i: number) => string, itemOf: (i: number) => T, partitions: number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  const partitionOf = new Map<string, number>();
  let lastKey: string | undefined;
  let group: T[] = [];
  for (let i = 0; i < count; i++) {
    const key = keyOf(i);
    if (key !== lastKey) {
      lastKey = key;
      let partition = partitionOf.get(key);
      if (partition === undefined) {
        partition = partitionForKey(key, partitions);
        partitionOf.set(key, partition);
      }
      const existing = groups.get(partition);
      if (existing) group = existing;
      else groups.set(partition, (group = []));
    }
    group.push(itemOf(i));
  }
  return groups;
}

/** The partition for `key` among `partitions` (same answer as kafkajs' DefaultPartitioner). */
export function partitionForKey(key: string | Buffer, partitions: number): number {
  if (!Number.isInteger(partitions) || partitions < 1) throw new RangeError(`partitions must be a positive integer, got ${partitions}`);
  return (murmur2(key) & 0x7fffffff) % partitions;
}

import { ICustomPartitioner, Partitioners } from 'kafkajs';
import { murmur2 } from '../partitioner';

/** Distinct keys whose hash is remembered; past it the memo starts over (keys are website ids: few). */
const MAX_REMEMBERED_KEYS = 10_000;

/**
 * kafkajs' DefaultPartitioner, with each string key's hash remembered: every
 * event has a key, and kafkajs hashed it per message with 64-bit `Long`
 * arithmetic (and filtered the partition list), a visible share of the
 * producer's CPU at bot traffic rates for a handful of distinct keys. Same
 * partition as the DefaultPartitioner (murmur2, sign bit masked, modulo the
 * partition count); anything else (a partition set by hand, a Buffer key, no
 * key) goes to the DefaultPartitioner itself.
 */
export const keyedPartitioner: ICustomPartitioner = () => {
  const fallback = Partitioners.DefaultPartitioner();
  const hashes = new Map<string, number>();
  return (args) => {
    const { message, partitionMetadata } = args;
    if (message.partition != null || typeof message.key !== 'string') return fallback(args);
    let hash = hashes.get(message.key);
    if (hash === undefined) {
      if (hashes.size >= MAX_REMEMBERED_KEYS) hashes.clear();
      hash = murmur2(message.key) & 0x7fffffff;
      hashes.set(message.key, hash);
    }
    return hash % partitionMetadata.length;
  };
};

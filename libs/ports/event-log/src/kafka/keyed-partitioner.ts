import { ICustomPartitioner, Partitioners } from 'kafkajs';
import { partitionForKey } from '../partitioner';

/**
 * kafkajs' DefaultPartitioner with keyed messages placed by `partitionForKey`
 * (the file log's function: same murmur2, sign bit masked, modulo the
 * partition count, so the same partition). Every event has a key, and kafkajs
 * hashed it per message with 64-bit `Long` arithmetic and filtered the
 * partition list, a visible share of the producer's CPU at bot traffic rates.
 * A partition set by hand and keyless messages go to the DefaultPartitioner.
 */
export const keyedPartitioner: ICustomPartitioner = () => {
  const fallback = Partitioners.DefaultPartitioner();
  return (args) => {
    const { message, partitionMetadata } = args;
    if (message.partition != null || message.key == null) return fallback(args);
    return partitionForKey(message.key, partitionMetadata.length);
  };
};

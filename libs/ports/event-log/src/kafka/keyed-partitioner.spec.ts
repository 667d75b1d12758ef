import { Partitioners, PartitionerArgs } from 'kafkajs';
import { keyedPartitioner } from './keyed-partitioner';

const metadata = (count: number): PartitionerArgs['partitionMetadata'] =>
  Array.from({ length: count }, (_, partitionId) => ({ partitionId, leader: partitionId % 2 === 0 ? 0 : -1, partitionErrorCode: 0, replicas: [0], isr: [0] }));

describe('keyedPartitioner', () => {
  const keys = ['', 'demo', 'acme-shop', 'www.example.com', 'café', '日本語のキー', 'x'.repeat(1000), ...Array.from({ length: 200 }, (_, i) => `website-${i}`)];

  it('picks the DefaultPartitioner’s partition for every string key', () => {
    const reference = Partitioners.DefaultPartitioner();
    const keyed = keyedPartitioner();
    for (const count of [1, 2, 3, 12, 64]) {
      for (const key of [...keys, ...keys]) {
        const args = { topic: 't', partitionMetadata: metadata(count), message: { key, value: 'v' } };
        expect(keyed(args)).toBe(reference(args));
      }
    }
  });

  it('picks the DefaultPartitioner’s partition for a Buffer key, and leaves a partition set by hand and keyless messages to it', () => {
    const keyed = keyedPartitioner();
    const partitionMetadata = metadata(8);
    expect(keyed({ topic: 't', partitionMetadata, message: { key: 'demo', value: 'v', partition: 5 } })).toBe(5);
    const reference = Partitioners.DefaultPartitioner();
    const bufferKey = { topic: 't', partitionMetadata, message: { key: Buffer.from('demo'), value: 'v' } };
    expect(keyed(bufferKey)).toBe(reference(bufferKey));
    // Keyless: round robin over the partitions with a leader (the even ones here).
    const spread = new Set(Array.from({ length: 40 }, () => keyed({ topic: 't', partitionMetadata, message: { value: 'v' } })));
    expect([...spread].sort()).toEqual([0, 2, 4, 6]);
  });

  it('agrees with the DefaultPartitioner over 12,000 distinct keys', () => {
    const reference = Partitioners.DefaultPartitioner();
    const keyed = keyedPartitioner();
    const partitionMetadata = metadata(7);
    for (let i = 0; i < 12_000; i += 1) {
      const args = { topic: 't', partitionMetadata, message: { key: `k${i}`, value: 'v' } };
      expect(keyed(args)).toBe(reference(args));
    }
  });
});

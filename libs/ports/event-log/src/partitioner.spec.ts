import { groupByPartition, murmur2, partitionForKey } from './partitioner';

// kafkajs' own implementation is the reference: cluster mode partitions with it.
const kafkajsMurmur2 = require('kafkajs/src/producer/partitioners/default/murmur2') as (key: string) => number;

const KEYS = ['', 'a', 'ab', 'abc', 'abcd', 'abcde', 'host-42', 'www.example.com', 'café', '日本語のキー', 'x'.repeat(1000)];

describe('partitionForKey', () => {
  it('hashes exactly like the Kafka / kafkajs default partitioner', () => {
    for (const key of KEYS) expect(murmur2(key)).toBe(kafkajsMurmur2(key));
  });

  it('matches known Kafka murmur2 values', () => {
    // Values from Kafka's UtilsTest#testMurmur2.
    expect(murmur2(Buffer.from('21'))).toBe(-973932308);
    expect(murmur2(Buffer.from('foobar'))).toBe(-790332482);
    expect(murmur2(Buffer.from('a-little-bit-long-string'))).toBe(-985981536);
  });

  it('is stable and in range', () => {
    for (const partitions of [1, 3, 4, 16]) {
      for (const key of KEYS) {
        const p = partitionForKey(key, partitions);
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThan(partitions);
        expect(partitionForKey(key, partitions)).toBe(p);
      }
    }
  });

  it('spreads distinct keys over the partitions', () => {
    const used = new Set(Array.from({ length: 100 }, (_, i) => partitionForKey(`host-${i}`, 4)));
    expect(used.size).toBe(4);
  });

  it('rejects a non-positive partition count', () => {
    expect(() => partitionForKey('a', 0)).toThrow(RangeError);
  });
});

describe('groupByPartition', () => {
  it('groups items by their key’s partition, in item order, partitions in the order they first appear, keys repeated or alternating', () => {
    const keys = ['a', 'a', 'b', 'a', 'c', 'c', 'b', 'd', 'a', 'e', 'e', 'f'];
    const groups = groupByPartition(keys.length, (i) => keys[i], (i) => `${keys[i]}${i}`, 3);
    const expected = new Map<number, string[]>();
    keys.forEach((key, i) => {
      const partition = partitionForKey(key, 3);
      expected.set(partition, [...(expected.get(partition) ?? []), `${key}${i}`]);
    });
    expect([...groups]).toEqual([...expected]);
    expect(groupByPartition(0, () => 'a', () => 0, 3).size).toBe(0);
  });
});

/** Deterministic pseudo-random numbers (mulberry32), so a failing fuzz case can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

/** Values of every JSON type and a few hostile ones: none is a valid host id, URL list, priority, mode or dimension list. */
export const HOSTILE_VALUES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  '',
  ' ',
  '1',
  'high ',
  'HIGH',
  'Normal',
  "'; DROP TABLE queue; --",
  '../../etc/passwd',
  '\u0000',
  'x'.repeat(10_000),
  [],
  [null],
  [1, 2, 3],
  ['not a url'],
  ['javascript:alert(1)'],
  ['https://evil.example/'],
  {},
  { $ne: null },
  { __proto__: { polluted: true } },
  [[[[[[[[[[[]]]]]]]]]]],
];

/** Bodies that are not a JSON object at all, or not JSON. */
export const RAW_GARBAGE: readonly string[] = [
  '',
  '{',
  '}',
  '[',
  'null',
  'true',
  '42',
  '"text"',
  '[1,2]',
  '{"host_id":}',
  '{"host_id": 1,}',
  "{'host_id': 1}",
  '{"host_id": 1} trailing',
  '\u0000\u0001\u0002',
  '<xml/>',
  '{"a":'.repeat(500),
  '[' .repeat(5000) + ']'.repeat(5000),
];

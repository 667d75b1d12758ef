import { BotRequestEventIds, EVENT_ID_LENGTH } from './bot-request-event-ids';

const PREFIX = '0123456789abcdef0123456789abcdef';

describe('BotRequestEventIds', () => {
  it('writes version 8 UUIDs: distinct for distinct sequence numbers, the same for the same one', () => {
    const ids = new BotRequestEventIds(PREFIX);
    const seen = new Set(Array.from({ length: 10_000 }, (_, i) => ids.of(i)));
    expect(seen.size).toBe(10_000);
    expect(ids.of(5)).toBe(new BotRequestEventIds(PREFIX).of(5));
    for (const id of [ids.of(0), ids.of(2 ** 48 - 1), new BotRequestEventIds('f'.repeat(32)).of(1)]) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ids.of(0)).toBe('01234567-89ab-8def-8123-456789abcdef');
    // The sequence is added to the prefix's last 48 bits, wrapping within them.
    expect(ids.of(1)).toBe('01234567-89ab-8def-8123-456789abcdf0');
    expect(new BotRequestEventIds('f'.repeat(32)).of(1)).toBe('ffffffff-ffff-8fff-bfff-000000000000');
    expect(new BotRequestEventIds(PREFIX).of(0)).not.toBe(new BotRequestEventIds('1'.repeat(32)).of(0));
  });

  it('writes the last 48 bits as the prefix plus the sequence, in any order of sequence numbers and across every carry', () => {
    const ids = new BotRequestEventIds(PREFIX);
    const low = BigInt(`0x${PREFIX.slice(20)}`);
    const expected = (seq: number) => `01234567-89ab-8def-8123-${((low + BigInt(seq)) % 2n ** 48n).toString(16).padStart(12, '0')}`;
    const carries = [0xfff, 0xffffff, 0xfffffffff, 2 ** 48 - 1].map((bits) => Number(BigInt(bits) - low + 2n ** 48n) % 2 ** 48);
    const seqs = [...carries.flatMap((c) => [c - 1, c, c + 1, c + 2]), ...Array.from({ length: 2_000 }, (_, i) => Math.floor(((i * 2_654_435_761) % 2 ** 32) * 65_537) % 2 ** 48)];
    for (const seq of seqs) expect(ids.of(seq)).toBe(expected(seq));
  });

  it('writes an id as ASCII bytes at an offset, the bytes of the id `of` gives, and nothing around them', () => {
    const ids = new BotRequestEventIds(PREFIX);
    for (const seq of [0, 1, 4_095, 4_096, 2 ** 24 + 5, 2 ** 48 - 1]) {
      const out = Buffer.alloc(EVENT_ID_LENGTH + 10, 0xaa);
      ids.write(out, 3, seq);
      expect(out.toString('latin1', 3, 3 + EVENT_ID_LENGTH)).toBe(ids.of(seq));
      expect([...out.subarray(0, 3), ...out.subarray(3 + EVENT_ID_LENGTH)].every((b) => b === 0xaa)).toBe(true);
    }
  });

  it('refuses a prefix that is not 32 lowercase hex digits', () => {
    for (const prefix of ['', 'abc', 'G'.repeat(32), 'A'.repeat(32), '0'.repeat(33)]) expect(() => new BotRequestEventIds(prefix)).toThrow('event id prefix must be 32 lowercase hex digits');
  });
});

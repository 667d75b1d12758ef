import { ROW_CHUNK_BYTES, RowMemory } from './row-memory';

describe('RowMemory', () => {
  it('hands out consecutive, separate bytes of one chunk, then of a new chunk when the next take does not fit', () => {
    const memory = new RowMemory();
    const a = memory.take(10);
    const b = memory.take(20);
    expect(a.buffer).toBe(b.buffer);
    expect(b.byteOffset).toBe(a.byteOffset + 10);
    const c = memory.take(ROW_CHUNK_BYTES - 20);
    expect(c.buffer).not.toBe(a.buffer);
    expect(memory.seal()).toHaveLength(2);
  });

  it('reuses chunks only once released: rows of a write in flight are never overwritten', () => {
    const memory = new RowMemory();
    const inFlight = memory.take(5).fill(1);
    const sealed = memory.seal();
    const next = memory.take(5).fill(2);
    expect(next.buffer).not.toBe(inFlight.buffer);
    expect([...inFlight]).toEqual([1, 1, 1, 1, 1]);
    memory.seal();
    memory.release(sealed);
    expect(memory.take(5).buffer).toBe(inFlight.buffer);
  });

  it('gives a take larger than a chunk memory of its own, never reused', () => {
    const memory = new RowMemory();
    const big = memory.take(ROW_CHUNK_BYTES + 1);
    expect(big.length).toBe(ROW_CHUNK_BYTES + 1);
    expect(memory.seal()).toEqual([]);
  });
});

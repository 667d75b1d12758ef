import { BatchScratch, Scratch } from './batch-scratch';

describe('BatchScratch', () => {
  it('lends the same memory append after append while they succeed', async () => {
    const scratch = new BatchScratch(64);
    const lent: Scratch[] = [];
    for (let i = 0; i < 3; i++) await scratch.use(async (memory) => void lent.push(memory));
    expect(lent[1]).toBe(lent[0]);
    expect(lent[2]).toBe(lent[0]);
    expect([lent[0].json.length, lent[0].records.length]).toEqual([64, 64]);
    expect(lent[0].json.buffer).not.toBe(lent[0].records.buffer);
  });

  it('lends new memory after an append that failed, and answers its failure', async () => {
    const scratch = new BatchScratch(64);
    let failed: Scratch | undefined;
    await expect(
      scratch.use(async (memory) => {
        failed = memory;
        throw new Error('broker refused');
      }),
    ).rejects.toThrow('broker refused');
    let next: Scratch | undefined;
    await scratch.use(async (memory) => void (next = memory));
    expect(next).toBeDefined();
    expect(next!.json).not.toBe(failed!.json);
    expect(next!.records).not.toBe(failed!.records);
  });

  it('gives appends running at once memory of their own', async () => {
    const scratch = new BatchScratch(64);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let first: Scratch | undefined;
    const running = scratch.use(async (memory) => {
      first = memory;
      await held;
    });
    let second: Scratch | undefined;
    await scratch.use(async (memory) => void (second = memory));
    release();
    await running;
    expect(second!.json).not.toBe(first!.json);
    expect(second!.records).not.toBe(first!.records);
  });
});

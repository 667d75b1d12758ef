import { Gauge, Registry } from 'prom-client';
import { scrapeSafeCollect } from './scrape-safe-collect';

/** A registry with one gauge whose live read is `read`. */
function gaugeReading(read: () => Promise<number>, timeoutMs?: number): Registry {
  const registry = new Registry();
  const gauge: Gauge = new Gauge({ name: 'depth', help: 'h', registers: [registry], collect: scrapeSafeCollect(read, (value) => gauge.set(value), timeoutMs) });
  return registry;
}

const depthIn = (text: string) => Number(/^depth (\S+)$/m.exec(text)?.[1]);

describe('scrapeSafeCollect', () => {
  it('shows what the read returned', async () => {
    expect(depthIn(await gaugeReading(async () => 7).metrics())).toBe(7);
  });

  it('keeps the last value when the read fails, synchronously or not', async () => {
    const reads: (() => Promise<number>)[] = [
      async () => 3,
      () => Promise.reject(new Error('redis unreachable')),
      () => {
        throw new Error('thrown before any promise');
      },
    ];
    let call = 0;
    const registry = gaugeReading(() => reads[call++]());
    expect(depthIn(await registry.metrics())).toBe(3);
    expect(depthIn(await registry.metrics())).toBe(3);
    expect(depthIn(await registry.metrics())).toBe(3);
  });

  it('answers within the timeout when the read hangs, applies it once it ends, and never runs two reads at once', async () => {
    let reads = 0;
    let finish: (value: number) => void = () => undefined;
    const registry = gaugeReading(() => {
      reads += 1;
      return new Promise<number>((resolve) => (finish = resolve));
    }, 50);
    // The read has not ended (the test ends it below): each answer here came by the 50 ms timeout.
    expect(depthIn(await registry.metrics())).toBe(0);
    expect(depthIn(await registry.metrics())).toBe(0);
    expect(reads).toBe(1);
    finish(9);
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toBe(1);
    const afterwards = registry.metrics();
    await new Promise((resolve) => setImmediate(resolve));
    finish(10);
    expect(depthIn(await afterwards)).toBe(10);
    expect(reads).toBe(2);
  });

  it('gives up on a read hung for 30 s: the next scrape reads again, and the late answer of the old one is dropped', async () => {
    jest.useFakeTimers({ now: 0 });
    try {
      const finishers: ((value: number) => void)[] = [];
      const registry = gaugeReading(() => new Promise<number>((resolve) => finishers.push(resolve)), 50);
      const scrape = async (): Promise<number> => {
        const text = registry.metrics();
        await jest.advanceTimersByTimeAsync(50);
        return depthIn(await text);
      };
      expect(await scrape()).toBe(0);
      jest.setSystemTime(29_000);
      expect(await scrape()).toBe(0);
      expect(finishers).toHaveLength(1);
      jest.setSystemTime(31_000);
      const fresh = registry.metrics();
      await jest.advanceTimersByTimeAsync(1);
      expect(finishers).toHaveLength(2);
      finishers[1](5);
      await jest.advanceTimersByTimeAsync(50);
      expect(depthIn(await fresh)).toBe(5);
      finishers[0](99);
      expect(await scrape()).toBe(5);
    } finally {
      jest.useRealTimers();
    }
  });
});

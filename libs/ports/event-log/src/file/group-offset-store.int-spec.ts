import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { silentLog } from '@bpc/support';
import { until } from '@bpc/testing';
import { GroupOffsetStore } from './group-offset-store';


describe('GroupOffsetStore', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), 'bpc-offsets-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** The next offset of t/0 as the group's file holds it. */
  const stored = async (group = 'g'): Promise<number | undefined> => {
    const text = await readFile(path.join(dir, `group-${group}.json`), 'utf8').catch(() => undefined);
    return text === undefined ? undefined : (JSON.parse(text) as { offsets: { t?: Record<string, number> } }).offsets.t?.['0'];
  };

  it('writes the first commit at once and coalesces the commits of the next interval, written by flush at once', async () => {
    const store = await GroupOffsetStore.load(dir, 'g', silentLog, 60_000);
    store.commit('t', 0, 1);
    await until(async () => (await stored()) === 1, { timeoutMs: 5_000, intervalMs: 10 });
    for (let next = 2; next <= 50; next += 1) store.commit('t', 0, next);
    // Baseline: another group's first commit, written at once, after these. Once it is on disk, a write of theirs begun at once would be too.
    const other = await GroupOffsetStore.load(dir, 'h', silentLog, 60_000);
    other.commit('t', 0, 1);
    await until(async () => (await stored('h')) === 1, { timeoutMs: 5_000, intervalMs: 10 });
    // Within the interval the file keeps the first write; memory has the latest.
    expect(await stored()).toBe(1);
    expect(store.get('t', 0)).toBe(50);
    await store.flush();
    expect(await stored()).toBe(50);
    expect((await GroupOffsetStore.load(dir, 'g', silentLog)).get('t', 0)).toBe(50);
  });

  it('writes the coalesced commits by itself once the interval has passed', async () => {
    const store = await GroupOffsetStore.load(dir, 'g', silentLog, 300);
    store.commit('t', 0, 1);
    for (let next = 2; next <= 20; next += 1) store.commit('t', 0, next);
    await until(async () => (await stored()) === 20, { timeoutMs: 5_000, intervalMs: 20 });
  });
});

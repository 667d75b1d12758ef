import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NewCacheEntry } from './cache-store.port';
import { FileCacheStore } from './file-cache-store';
import { FileObjectStore } from '@bpc/object-store';

describe('FileCacheStore across a restart', () => {
  const T = Date.now();
  // The layout of a standalone data_dir: bodies as objects under `cache/`, sidecars beside them in data_dir/cache.
  let dataDir: string;
  let directory: string;

  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'bpc-cache-reopen-'));
    directory = path.join(dataDir, 'cache');
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const entry = (overrides: Partial<NewCacheEntry> = {}): NewCacheEntry => ({
    hostId: 1,
    url: 'https://www.example.com/a',
    dimensionId: 1,
    kind: 'render',
    statusCode: 200,
    headers: { 'content-type': 'text/html' },
    durationMs: 5,
    createdAt: T,
    expiresAt: T + 60_000,
    ...overrides,
  });

  it('keeps entries, invalidations, checkpoints and recorded results', async () => {
    const first = await FileCacheStore.open({ directory, objects: new FileObjectStore(dataDir), bodyRemovalDelayMs: 0 });
    await first.put(entry(), Buffer.from('<p>a</p>'));
    await first.put(entry({ dimensionId: 2 }), Buffer.from('<p>a2</p>'));
    await first.put(entry({ createdAt: T + 1 }), Buffer.from('<p>a, again</p>'));
    await first.put(entry({ url: 'https://www.example.com/gone' }), Buffer.from('<p>gone</p>'));
    await first.invalidate(1, ['https://www.example.com/gone'], [1], { stream: 's:0', offset: '7', eventId: 'e7' });
    await first.close();

    const second = await FileCacheStore.open({ directory, objects: new FileObjectStore(dataDir) });
    expect((await (await second.get(1, entry().url, 1))!.readBody()).toString()).toBe('<p>a, again</p>');
    expect((await second.get(1, entry().url, 2))?.entry).toMatchObject({ kind: 'render', statusCode: 200, bytes: 9 });
    expect(await second.get(1, 'https://www.example.com/gone', 1)).toBeUndefined();
    expect(await second.nextOffset('s:0')).toBe('8');
    expect(await second.resultOf('e7')).toBe(1);
    expect(await second.invalidate(1, [entry().url], [1], { stream: 's:0', offset: '7', eventId: 'e7' })).toEqual({ applied: false, value: 1 });
    // The listing order is rebuilt from the sidecars too.
    expect((await second.listEntries(1, { urlPrefix: 'https://www.example.com/' }, 0, 10)).entries.map((e) => `${e.url}#${e.dimensionId}`)).toEqual([
      `${entry().url}#1`,
      `${entry().url}#2`,
    ]);
    await second.close();
  });

  it('settles leftovers of interrupted writes: temp files, bodies without sidecar, a bypass that lost to a fresh render', async () => {
    const first = await FileCacheStore.open({ directory, objects: new FileObjectStore(dataDir) });
    const render = await first.put(entry(), Buffer.from('<p>render</p>'));
    await first.close();
    const hostDir = path.join(directory, '1', 'ab');
    await mkdir(hostDir, { recursive: true });
    writeFileSync(path.join(hostDir, 'orphan.1.x.body'), 'orphan');
    writeFileSync(path.join(hostDir, 'half.1.x.body.tmp-1234'), 'half');
    writeFileSync(path.join(directory, 'cache-state.json.tmp-0badf00d'), '{"ver');
    // A bypass sidecar committed after the render (a crash before its refusal was cleaned up).
    const lost = { ...entry({ kind: 'bypass', createdAt: T + 10 }), bytes: 6, bodyPath: '1/ab/lost.2.y.body' };
    writeFileSync(path.join(hostDir, 'lost.2.y.body'), 'bypass');
    writeFileSync(path.join(hostDir, 'lost.2.y.json'), JSON.stringify(lost));

    const second = await FileCacheStore.open({ directory, objects: new FileObjectStore(dataDir) });
    expect((await (await second.get(1, entry().url, 1))!.readBody()).toString()).toBe('<p>render</p>');
    for (const name of ['orphan.1.x.body', 'half.1.x.body.tmp-1234', 'lost.2.y.body', 'lost.2.y.json']) expect(existsSync(path.join(hostDir, name))).toBe(false);
    expect(render.stored && existsSync(path.join(directory, render.entry.bodyPath))).toBe(true);
    expect(existsSync(path.join(directory, 'cache-state.json.tmp-0badf00d'))).toBe(false);
    await second.close();
  });
});

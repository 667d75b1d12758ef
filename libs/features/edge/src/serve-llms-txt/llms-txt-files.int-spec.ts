import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileCacheStore, NewCacheEntry } from '@bpc/cache-store';
import { factsWith } from '../../../../core/domain/src/pages/page-facts.fixtures';
import { LlmsTxtFiles } from './llms-txt-files';
import { FileObjectStore } from '@bpc/object-store';

const T = Date.UTC(2026, 11, 7, 8);
const SITE = { name: 'Example', summary: 'Widgets.' };
const url = (p: string) => `https://www.example.com${p}`;
const entry = (p: string, over: Partial<NewCacheEntry> = {}): NewCacheEntry => ({
  hostId: 1,
  url: url(p),
  dimensionId: 1,
  kind: 'render',
  statusCode: 200,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  durationMs: 5,
  createdAt: T,
  expiresAt: T + 60_000,
  facts: factsWith({ title: `Title ${p}`, description: `About ${p}.`, canonical: url(p) }),
  ...over,
});

describe("a website's llms.txt from its host's cache entries (file cache store)", () => {
  let directory: string;
  let store: FileCacheStore;
  let now: number;

  beforeEach(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'bpc-llms-txt-'));
    store = await FileCacheStore.open({ directory, objects: new FileObjectStore(directory), bodyPrefix: '', bodyRemovalDelayMs: 0 });
    now = T;
  });
  afterEach(async () => {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const put = (p: string, over: Partial<NewCacheEntry> = {}) => store.put(entry(p, over), Buffer.from('<p>x</p>'));

  it('lists the cached pages readers can use, one per URL, by their facts', async () => {
    await put('/docs/a');
    await put('/docs/a', { dimensionId: 2, facts: undefined });
    await put('/pricing', { facts: undefined });
    await put('/hidden', { facts: factsWith({ noindexBy: ['robots'] }) });
    await put('/old-hidden', { facts: undefined, headers: { 'content-type': 'text/html', 'x-robots-tag': 'noindex' } });
    await put('/gone', { statusCode: 404 });
    await put('/moved', { statusCode: 301, headers: { location: '/pricing' } });
    await put('/soft', { facts: factsWith({ soft404: true }) });
    await put('/feed.json', { kind: 'bypass', headers: { 'content-type': 'application/json' }, facts: undefined });
    await put('/llms.txt', { kind: 'bypass', headers: { 'content-type': 'text/html' }, facts: undefined });
    const files = new LlmsTxtFiles(store, () => now, 60_000, () => undefined);
    const file = await files.of('demo', 1, SITE);
    expect(file.text.toString()).toBe(
      ['# Example', '', '> Widgets.', '', '## Pages', '', `- [${url('/pricing')}](${url('/pricing')})`, '', '## docs', '', `- [Title /docs/a](${url('/docs/a')}): About /docs/a.`, ''].join('\n'),
    );
    expect([file.listed, file.leftOut, file.generatedAt]).toEqual([2, 0, T]);
  });

  it('serves its file until it is due, then the same once more while the next is generated, then the next', async () => {
    await put('/a');
    const files = new LlmsTxtFiles(store, () => now, 60_000, () => undefined);
    const first = await files.of('demo', 1, SITE);
    await put('/b');
    now += 59_999;
    expect(files.of('demo', 1, SITE)).toBe(first);
    now += 1;
    expect(files.of('demo', 1, SITE)).toBe(first);
    const next = await until(() => files.of('demo', 1, SITE), (file) => file !== first);
    expect(next.text.toString()).toContain(url('/b'));
    expect(next.generatedAt).toBe(T + 60_000);
  });

  it('shares one generation between concurrent first requests', async () => {
    await put('/a');
    const files = new LlmsTxtFiles(store, () => now, 60_000, () => undefined);
    const answers = await Promise.all(Array.from({ length: 5 }, () => files.of('demo', 1, SITE)));
    expect(new Set(answers).size).toBe(1);
  });

  it('reads at most its bound of entries, the first by URL', async () => {
    for (const p of ['/a', '/b', '/c', '/d']) await put(p);
    const file = await new LlmsTxtFiles(store, () => now, 60_000, () => undefined, 3).of('demo', 1, SITE);
    expect([file.listed, file.text.toString().includes(url('/c')), file.text.toString().includes(url('/d'))]).toEqual([3, true, false]);
  });
});

/** Polls a synchronous-or-not answer until it passes (the background generation ends in a few turns). */
async function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let turn = 0; turn < 1_000; turn += 1) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('never happened');
}

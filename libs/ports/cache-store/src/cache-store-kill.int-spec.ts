import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileObjectStore } from '@bpc/object-store';
import { spawnNode, testEngines, until } from '@bpc/testing';
import type { CacheStore } from './cache-store.port';
import { FileCacheStore } from './file-cache-store';
import { RedisCacheStore } from './redis-cache-store';

const CHILD = 'libs/ports/cache-store/src/fixtures/put-until-killed.ts';
const page = (name: string, now: number) => ({ hostId: 1, url: `https://www.example.com/${name}`, dimensionId: 1, kind: 'render' as const, statusCode: 200, headers: {}, durationMs: 5, createdAt: now, expiresAt: now + 3_600_000 });

async function bodiesIn(objects: FileObjectStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of objects.list('cache/')) if (object.key.endsWith('.body')) keys.push(object.key);
  return keys.sort();
}

/**
 * A process killed -9 between a put's two writes (the body object written,
 * the entry not yet switched to it): no entry names that body, the sweep
 * takes it, and the entries stored before, with their bodies, stay.
 */
describe.each(['file', 'redis'] as const)('a %s cache store whose process is killed -9 between the body and the entry', (adapter) => {
  const directory = mkdtempSync(path.join(tmpdir(), 'bpc-cache-kill-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('leaves no entry pointing at a missing body, and no orphan after the sweep', async () => {
    const objects = new FileObjectStore(directory);
    const keyPrefix = `kill-${randomUUID()}`;
    const redisUrl = testEngines().redisUrl;
    // An hour on for the sweep: the orphan is past its grace period.
    const orphanSweep = { intervalMs: 0, graceMs: 60_000, clock: () => Date.now() + 3_600_000 };
    const open = async (): Promise<CacheStore & { sweepOrphans(): Promise<unknown> }> =>
      adapter === 'file' ? FileCacheStore.open({ directory: path.join(directory, 'cache'), objects, orphanSweep }) : new RedisCacheStore({ url: redisUrl, keyPrefix, objects, orphanSweep });
    const first = await open();
    await first.put(page('kept', Date.now()), Buffer.from('<html>kept</html>'));
    await first.close();

    const killed = spawnNode(['-r', './scripts/swc-register.cjs', CHILD, adapter, directory, redisUrl, keyPrefix], {});
    await until(
      async () => {
        if (killed.child.exitCode !== null) throw new Error(`the child exited before writing the body:\n${killed.output()}`);
        return killed.output();
      },
      (output) => output.includes('body written'),
      { what: 'the body written by the child' },
    );
    killed.child.kill('SIGKILL');
    expect(await killed.exited).toBe('SIGKILL');
    expect(await bodiesIn(objects)).toHaveLength(2);

    const after = await open();
    try {
      expect(await after.get(1, page('killed', 0).url, 1)).toBeUndefined();
      const kept = await after.get(1, page('kept', 0).url, 1);
      expect((await kept!.readBody()).toString()).toBe('<html>kept</html>');
      await after.sweepOrphans();
      expect(await bodiesIn(objects)).toEqual([`cache/${kept!.entry.bodyPath}`]);
    } finally {
      await after.close();
    }
  });
});

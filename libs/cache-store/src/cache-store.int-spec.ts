import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { testEngines } from '@bpc/testing';
import { describeCacheStoreContract } from './cache-store.contract';
import { FileCacheStore } from './file-cache-store';
import { RedisCacheStore } from './redis-cache-store';

const directories: string[] = [];
function tempDirectory(): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'bpc-cache-'));
  directories.push(directory);
  return directory;
}
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

describeCacheStoreContract('file', async ({ bodyRemovalDelayMs }) => {
  const directory = tempDirectory();
  return { store: await FileCacheStore.open({ directory, bodyRemovalDelayMs }), directory };
});

// Every test gets its own hash tag on the shared redis-server, so tests never see each other's keys.
describeCacheStoreContract('redis', async ({ bodyRemovalDelayMs }) => {
  const directory = tempDirectory();
  return { store: new RedisCacheStore({ url: testEngines().redisUrl, keyPrefix: `test-${randomUUID()}`, directory, bodyRemovalDelayMs }), directory };
});

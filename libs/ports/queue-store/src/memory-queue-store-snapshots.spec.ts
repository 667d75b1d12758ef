import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MemoryQueueStoreSnapshots, QUEUE_SNAPSHOT_FILE } from './memory-queue-store-snapshots';

describe('memory queue store snapshots on disk', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'bpc-snap-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const position = (offset: string) => ({ stream: 'bpc.queue.v1:0', offset, eventId: `e${offset}` });
  const request = { hostId: 1, priority: 'normal' as const, dueAt: 0, items: [{ url: 'https://a.example/', dimensionId: 1 }], entryId: 'e0' };

  it('restores entries and checkpoints written on close', async () => {
    const first = MemoryQueueStoreSnapshots.open({ dir });
    await first.store.enqueue(request, position('0'));
    first.close();

    const second = MemoryQueueStoreSnapshots.open({ dir });
    expect(await second.store.nextOffset('bpc.queue.v1:0')).toBe('1');
    expect((await second.store.counts(0)).get(1)?.normal.total).toBe(1);
    second.close();
  });

  it('starts empty (full replay) when the snapshot is unreadable', async () => {
    writeFileSync(path.join(dir, QUEUE_SNAPSHOT_FILE), '{"version":');
    const persistence = MemoryQueueStoreSnapshots.open({ dir });
    expect(await persistence.store.nextOffset('bpc.queue.v1:0')).toBeUndefined();
    persistence.close();
  });

  it('writes only when the projection moved', async () => {
    const persistence = MemoryQueueStoreSnapshots.open({ dir });
    await persistence.store.enqueue(request, position('0'));
    persistence.writeIfChanged();
    rmSync(path.join(dir, QUEUE_SNAPSHOT_FILE));
    persistence.writeIfChanged();
    expect(() => require('node:fs').readFileSync(path.join(dir, QUEUE_SNAPSHOT_FILE))).toThrow();
    persistence.close();
  });
});

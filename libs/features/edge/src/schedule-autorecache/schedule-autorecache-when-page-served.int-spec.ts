import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CacheEntry } from '@bpc/cache-store';
import { FileEventLog, LogRecord } from '@bpc/event-log';
import { AUTORECACHE_SCHEDULED, TOPICS } from '@bpc/events';
import { createLogger } from '@bpc/platform';
import { TestClock, testConfig, until } from '@bpc/testing';
import { HostCatalog } from '@bpc/domain';
import { RESCHEDULE_STALE_AFTER_MS, ScheduleAutorecacheWhenPageServed } from './schedule-autorecache-when-page-served';

const MINUTE = 60_000;
/** The test config's hosts: host 1 ignores `^/admin/`. */
const hosts = new HostCatalog(testConfig('standalone').hosts);

describe('ScheduleAutorecacheWhenPageServed (on a real file event log)', () => {
  let dir: string;
  let log: FileEventLog;
  const seen: LogRecord[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'autorecache-'));
    log = await FileEventLog.open({ dir });
    await log.subscribe({ groupId: 'read', topics: [TOPICS.queue], handleBatch: async (batch) => void seen.push(...batch.records) });
  });

  afterAll(async () => {
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const entry = (bodyPath: string, expiresAt: number): CacheEntry => ({
    hostId: 1, url: `https://www.example.com/${bodyPath}`, dimensionId: 1, kind: 'render', statusCode: 200, headers: {}, durationMs: 5, createdAt: expiresAt - 60 * MINUTE, expiresAt, bytes: 10, bodyPath,
  });
  const scheduledFor = (url: string) => seen.filter((r) => r.event.type === AUTORECACHE_SCHEDULED && (r.event.payload as { url: string }).url === url);
  /** Serves a page of its own and waits until it is scheduled: one host, one partition, so whatever was scheduled before it has been read too. */
  const readUpTo = async (scheduler: ScheduleAutorecacheWhenPageServed, marker: string, expiresAt: number) => {
    scheduler.served(entry(marker, expiresAt));
    await until(() => scheduledFor(entry(marker, expiresAt).url).length === 1);
  };

  it('schedules an entry version once while fresh, and again every 15 minutes once it has been stale for 15 (its queue entry may be gone)', async () => {
    const clock = new TestClock(Date.parse('2026-11-22T10:00:00Z'));
    const scheduler = new ScheduleAutorecacheWhenPageServed(log, clock, createLogger('silent', 'autorecache'), hosts);
    const page = entry('p1', clock.now() + 30 * MINUTE);
    for (let hit = 0; hit < 100; hit++) scheduler.served(page);
    clock.advance(29 * MINUTE);
    scheduler.served(page);
    // Stale, but the recache due at expiry is likely rendering now: not doubled.
    clock.advance(2 * MINUTE);
    scheduler.served(page);
    clock.advance(RESCHEDULE_STALE_AFTER_MS - 2 * MINUTE);
    scheduler.served(page);
    await until(() => scheduledFor(page.url).length === 1);

    // Stale for 15 minutes and still served: its recache may have been given up or purged.
    clock.advance(MINUTE);
    for (let hit = 0; hit < 100; hit++) scheduler.served(page);
    await until(() => scheduledFor(page.url).length === 2);
    clock.advance(RESCHEDULE_STALE_AFTER_MS - 1);
    scheduler.served(page);
    clock.advance(1);
    scheduler.served(page);
    scheduler.served(page);
    await readUpTo(scheduler, 'after-p1', clock.now() + MINUTE);
    expect(scheduledFor(page.url).map((r) => (r.event.payload as { dueAt: number }).dueAt)).toEqual([page.expiresAt, page.expiresAt, page.expiresAt]);
  });

  it('never schedules a URL an ignore rule matches', async () => {
    const clock = new TestClock(Date.parse('2026-11-22T14:00:00Z'));
    const scheduler = new ScheduleAutorecacheWhenPageServed(log, clock, createLogger('silent', 'autorecache'), hosts);
    const ignored = entry('admin/panel', clock.now() + MINUTE);
    const kept = entry('after-admin', clock.now() + MINUTE);
    scheduler.served(ignored);
    clock.advance(RESCHEDULE_STALE_AFTER_MS + 2 * MINUTE);
    scheduler.served(ignored);
    scheduler.served(kept);
    await until(() => scheduledFor(kept.url).length === 1);
    expect(scheduledFor(ignored.url)).toHaveLength(0);
  });

  it('schedules an entry first served stale at once, and a new version of the page on its own', async () => {
    const clock = new TestClock(Date.parse('2026-11-22T12:00:00Z'));
    const scheduler = new ScheduleAutorecacheWhenPageServed(log, clock, createLogger('silent', 'autorecache'), hosts);
    const stale = entry('p2', clock.now() - MINUTE);
    scheduler.served(stale);
    scheduler.served(stale);
    scheduler.served({ ...entry('p2', clock.now() + 60 * MINUTE), bodyPath: 'p2-v2' });
    await readUpTo(scheduler, 'after-p2', clock.now() + MINUTE);
    expect(scheduledFor(stale.url)).toHaveLength(2);
  });
});

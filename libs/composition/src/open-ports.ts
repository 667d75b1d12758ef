import path from 'node:path';
import type { AppConfig } from '@bpc/config';
import { EventLog, FileEventLog, openKafkaEventLog } from '@bpc/event-log';
import { ChdbExecutor, ClickhouseHttpExecutor, EXPLORER_DDL_DIR, EXPORT_TIME_LIMIT_S, ExplorerStore } from '@bpc/explorer-store';
import { MemoryQueueStoreSnapshots, QueueStore, RedisQueueStore } from '@bpc/queue-store';
import { CacheStore, FileCacheStore, RedisCacheStore } from '@bpc/cache-store';
import { MemoryWarmUpTurns, RedisWarmUpTurns, WarmUpTurns } from '@bpc/daemon';
import { Clock, HostCatalog, systemClock } from '@bpc/domain';
import { TOPICS } from '@bpc/events';
import { CachingPageRefresher, ChromiumTabPool, PageRefresher } from '@bpc/renderer';
import { AddressPolicy } from '@bpc/egress';
import { BotVerifier, createDnsLookups, RANGE_SET_STALE_DAYS, rangeSetAge, rangesOf, readRangeSet, SHIPPED_RANGES_DIR } from '@bpc/bot-verification';
import { RobotsTxtKeeper } from '@bpc/robots-txt';
import { MemoryRateLimitStore, RateLimitStore, RedisRateLimitStore } from '@bpc/rate-limit';
import { ExportSlots, MemoryExportSlots, RedisExportSlots } from '@bpc/export-slots';
import type { Logger } from 'pino';
import { settlesWithin, SHUTDOWN_BOUNDS_MS } from '@bpc/platform';
import { EngineWait } from './engine-wait';
import type { ObjectStore } from '@bpc/object-store';
import { openObjectStore } from './open-object-store';
import type { PortName, PortNeeds, Ports } from './ports';

const HOUR_MS = 3_600_000;

/** Shutdown work that belongs to an adapter but is not the port's own `close` (snapshots). */
const extraClosers = new WeakMap<Ports, (() => Promise<void> | void)[]>();
/** Ports whose adapter still waits for its engine (see `EngineWait`). */
const engineWaits = new WeakMap<Ports, Partial<Record<PortName, EngineWait>>>();

/** Throws what the port's adapter still waits for at startup (its engine not reached yet); readiness reports it. */
export function assertEngineReached(ports: Ports, name: PortName): void {
  engineWaits.get(ports)?.[name]?.assertDone();
}

/**
 * The one place that picks adapters from the validated configuration; the
 * rest of the code only sees the ports. Opens only what the process needs.
 */
export async function openPorts(config: AppConfig, needs: PortNeeds, logger: Logger, clock: Clock = systemClock): Promise<Ports> {
  const closers: (() => Promise<void> | void)[] = [];
  const opened: ({ close(): Promise<void> | void } | undefined)[] = [];
  const waits: Partial<Record<PortName, EngineWait>> = {};
  try {
    const eventLog = needs.has('eventLog') ? await openEventLog(config, logger.child({ port: 'event_log' })) : undefined;
    opened.push(eventLog);
    const queueStore = needs.has('queueStore') ? openQueueStore(config, logger.child({ port: 'queue_store' }), closers) : undefined;
    opened.push(queueStore);
    const explorerStore = needs.has('explorerStore') ? await openExplorerStore(config, logger.child({ port: 'explorer_store' }), waits) : undefined;
    opened.push(explorerStore);
    const needsCache = needs.has('cacheStore') || needs.has('pageRefresher');
    // The cache store keeps its page bodies in the object store.
    const objectStore = needs.has('objectStore') || needsCache ? openObjectStore(config) : undefined;
    opened.push(objectStore);
    const cacheStore = needsCache ? await openCacheStore(config, objectStore!, logger.child({ port: 'cache_store' })) : undefined;
    opened.push(cacheStore);
    const pageRefresher = needs.has('pageRefresher') ? openPageRefresher(config, cacheStore!, logger.child({ port: 'renderer' })) : undefined;
    const rateLimitStore = needs.has('rateLimitStore') ? openRateLimitStore(config, logger.child({ port: 'rate_limit_store' })) : undefined;
    opened.push(rateLimitStore);
    const exportSlots = needs.has('exportSlots') ? openExportSlots(config, logger.child({ port: 'export_slots' })) : undefined;
    opened.push(exportSlots);
    const warmUpTurns = needs.has('warmUpTurns') ? openWarmUpTurns(config, clock, logger.child({ port: 'warm_up_turns' })) : undefined;
    opened.push(warmUpTurns);
    const botVerifier = needs.has('botVerifier') ? await openBotVerifier(config, clock, logger.child({ port: 'bot_verifier' })) : undefined;
    const robotsTxt = needs.has('robotsTxt') ? openRobotsTxt(config) : undefined;
    opened.push(robotsTxt);
    const ports: Ports = { eventLog, queueStore, explorerStore, objectStore, cacheStore, pageRefresher, rateLimitStore, exportSlots, warmUpTurns, botVerifier, robotsTxt };
    extraClosers.set(ports, closers);
    engineWaits.set(ports, waits);
    return ports;
  } catch (error) {
    await Promise.all(Object.values(waits).map((wait) => wait.stop()));
    for (const closer of closers) await closer();
    await Promise.allSettled(opened.map((port) => port?.close()));
    throw error;
  }
}

/**
 * Closes in dependency order: snapshots, the stores, then the log, whose
 * close also flushes and commits. Bounded (`SHUTDOWN_BOUNDS_MS`): the stores
 * share one bound and the log has its own, so a store that hangs (an engine
 * statement still running) never keeps the log from closing.
 */
export async function closePorts(ports: Ports, logger: Logger): Promise<void> {
  const steps: [string, (() => Promise<void> | void) | undefined][] = [
    ...Object.entries(engineWaits.get(ports) ?? {}).map(([name, wait]): [string, () => Promise<void>] => [`${name} startup`, () => wait.stop()]),
    ...(extraClosers.get(ports) ?? []).map((closer): [string, () => Promise<void> | void] => ['snapshots', closer]),
    ['renderer', ports.pageRefresher && (() => ports.pageRefresher!.close())],
    ['robots_txt', ports.robotsTxt && (() => ports.robotsTxt!.close())],
    ['rate_limit_store', ports.rateLimitStore && (() => ports.rateLimitStore!.close())],
    ['export_slots', ports.exportSlots && (() => ports.exportSlots!.close())],
    ['warm_up_turns', ports.warmUpTurns && (() => ports.warmUpTurns!.close())],
    ['cache_store', ports.cacheStore && (() => ports.cacheStore!.close())],
    ['explorer_store', ports.explorerStore && (() => ports.explorerStore!.close())],
    ['object_store', ports.objectStore && (() => ports.objectStore!.close())],
    ['queue_store', ports.queueStore && (() => ports.queueStore!.close())],
  ];
  const storesBy = Date.now() + SHUTDOWN_BOUNDS_MS.storesClose;
  for (const [name, close] of steps) await closeWithin(name, close, storesBy - Date.now(), logger);
  await closeWithin('event_log', ports.eventLog && (() => ports.eventLog!.close()), SHUTDOWN_BOUNDS_MS.eventLogClose, logger);
}

async function closeWithin(name: string, close: (() => Promise<void> | void) | undefined, ms: number, logger: Logger): Promise<void> {
  if (!close) return;
  const closing = (async () => close())().catch((error) => logger.error({ err: error, port: name }, 'error while closing adapter'));
  if (!(await settlesWithin(closing, ms))) logger.error({ port: name, ms: Math.max(0, ms) }, 'adapter did not close in time: going on without it');
}

async function openEventLog(config: AppConfig, log: Logger): Promise<EventLog> {
  switch (config.adapters.event_log) {
    case 'file':
      return FileEventLog.open({
        dir: path.join(config.data_dir, 'event-log'),
        partitions: config.event_log_file.partitions,
        retentionMs: config.event_log_file.retention_hours > 0 ? config.event_log_file.retention_hours * HOUR_MS : undefined,
        // Only the bot requests: the other topics are state of record (queue, tokens, exports, search imports).
        retentionTopics: [TOPICS.botRequests],
        log,
      });
    case 'kafka': {
      const kafka = config.kafka!;
      // Bot requests are appended from a worker thread: encoding them in kafkajs would take the serving thread's time.
      const offThread = { topics: [TOPICS.botRequests], clientId: `${kafka.client_id}-bot-requests` };
      return openKafkaEventLog({ brokers: kafka.brokers, clientId: kafka.client_id, namespace: kafka.namespace, fetchMaxWaitMs: kafka.fetch_max_wait_ms, sessionTimeoutMs: kafka.session_timeout_ms, offThread, log });
    }
  }
}

function openQueueStore(config: AppConfig, log: Logger, closers: (() => void)[]): QueueStore {
  switch (config.adapters.queue_store) {
    case 'memory': {
      const persistence = MemoryQueueStoreSnapshots.open({ dir: path.join(config.data_dir, 'snapshots'), log });
      closers.push(() => persistence.close());
      return persistence.store;
    }
    case 'redis':
      return new RedisQueueStore({ url: config.redis!.url, keyPrefix: config.redis!.key_prefix, log });
  }
}

/**
 * The ClickHouse client's request timeout is a socket idle timeout, and a
 * count or a sort sends nothing until it ends: it must outlast the engine's
 * own bounds (`explorer.query_timeout_ms`, answered 504 QUERY_TIMEOUT; an
 * export's 5 minutes), or a slow query is cut first and reported as the
 * store being unavailable, while the server goes on running it.
 */
function clickhouseIdleTimeoutMs(config: AppConfig): number {
  return Math.max(config.explorer.query_timeout_ms, EXPORT_TIME_LIMIT_S * 1000) + 30_000;
}

/**
 * chDB runs in this process: a failure to open it or apply the DDL is a
 * startup error. A ClickHouse server may not be up yet (or still booting):
 * its DDL is applied in the background once it answers, and the port
 * reports what it waits for until then.
 */
async function openExplorerStore(config: AppConfig, log: Logger, waits: Partial<Record<PortName, EngineWait>>): Promise<ExplorerStore> {
  switch (config.adapters.explorer_store) {
    case 'chdb': {
      const store = new ChdbExecutor({ path: path.join(config.data_dir, 'chdb'), ddlDir: EXPLORER_DDL_DIR, log });
      await store.migrate();
      return store;
    }
    case 'clickhouse': {
      const clickhouse = config.clickhouse!;
      const store = new ClickhouseHttpExecutor({
        ddlDir: EXPLORER_DDL_DIR,
        url: clickhouse.url,
        database: clickhouse.database,
        username: clickhouse.username,
        password: clickhouse.password,
        requestTimeoutMs: clickhouseIdleTimeoutMs(config),
        log,
      });
      waits.explorerStore = new EngineWait(`ClickHouse at ${clickhouse.url} (user ${clickhouse.username}) to apply the explorer DDL`, () => store.migrate(), log);
      return store;
    }
  }
}

/** Redis connection options of this deployment (cluster mode), for the ports that follow the queue store. */
interface SharedRedis {
  readonly url: string;
  readonly keyPrefix: string;
}

/** Ports that follow the queue store: this process's own in standalone mode, the shared Redis in cluster mode. */
function followingQueueStore<T>(config: AppConfig, standalone: () => T, cluster: (redis: SharedRedis) => T): T {
  switch (config.adapters.queue_store) {
    case 'memory':
      return standalone();
    case 'redis':
      return cluster({ url: config.redis!.url, keyPrefix: config.redis!.key_prefix });
  }
}

/**
 * Entry metadata follows the queue store (sidecar files in `data_dir/cache`,
 * or Redis); bodies are objects under `cache/` in the object store, so with
 * files under `data_dir` a data directory keeps its layout.
 */
async function openCacheStore(config: AppConfig, objects: ObjectStore, log: Logger): Promise<CacheStore> {
  return followingQueueStore<CacheStore | Promise<CacheStore>>(
    config,
    () => FileCacheStore.open({ directory: path.join(config.data_dir, 'cache'), objects, log }),
    (redis) => new RedisCacheStore({ ...redis, objects, log }),
  );
}

/** Rate-limit counters: in memory standalone, in the shared Redis in cluster mode. */
function openRateLimitStore(config: AppConfig, log: Logger): RateLimitStore {
  return followingQueueStore<RateLimitStore>(config, () => new MemoryRateLimitStore(), (redis) => new RedisRateLimitStore({ ...redis, log }));
}

/** Export slots: in memory standalone, in the shared Redis in cluster mode (one running export per account across replicas). */
function openExportSlots(config: AppConfig, log: Logger): ExportSlots {
  return followingQueueStore<ExportSlots>(config, () => new MemoryExportSlots(), (redis) => new RedisExportSlots({ ...redis, log }));
}

/** Sitemap warm-up turns: in memory standalone, in the shared Redis in cluster mode; with no sitemap to warm no turn is ever claimed, and no connection is worth opening. */
function openWarmUpTurns(config: AppConfig, clock: Clock, log: Logger): WarmUpTurns {
  if (config.websites.every((website) => website.sitemaps.length === 0)) return new MemoryWarmUpTurns(clock);
  return followingQueueStore<WarmUpTurns>(config, () => new MemoryWarmUpTurns(clock), (redis) => new RedisWarmUpTurns({ ...redis, log }));
}

/** The verifier on the configured range files (the shipped set by default) and DNS servers; a set that does not load stops startup, an old one is said so. */
async function openBotVerifier(config: AppConfig, clock: Clock, log: Logger): Promise<BotVerifier> {
  const { dns_servers, dns_timeout_ms } = config.edge.bot_verification;
  const ranges_dir = config.edge.bot_verification.ranges_dir ?? SHIPPED_RANGES_DIR;
  const set = await readRangeSet(ranges_dir);
  if (set.sample) {
    log.warn({ ranges_dir }, 'edge.bot_verification.ranges_dir is a SAMPLE range set (documentation addresses, for tests): real crawlers of range-only operators will be proven false');
  } else {
    const age = rangeSetAge(set.sources, clock.now());
    const fields = { ranges_dir, files: set.files.length, as_of: age.asOf ?? 'unknown', age_days: age.ageDays, reverse_dns_only: age.reverseDnsOnly };
    if (age.stale) log.warn(fields, `bot ranges are ${age.ageDays} days old (over ${RANGE_SET_STALE_DAYS}): range-only operators' new addresses will be proven false; refresh them (npm run bots:update-ranges, docs/bots.md)`);
    else log.info(fields, `bot ranges as of ${fields.as_of}${age.ageDays === undefined ? '' : ` (${age.ageDays} days old)`}; npm run bots:update-ranges refreshes them (docs/bots.md)`);
  }
  return new BotVerifier({ ranges: rangesOf(set.files), lookups: createDnsLookups({ servers: dns_servers, timeoutMs: dns_timeout_ms }) });
}

/** robots.txt is fetched as renders are: the host's origin, else only public addresses outside `render_service.egress_denied_ranges`. */
function openRobotsTxt(config: AppConfig): RobotsTxtKeeper {
  return new RobotsTxtKeeper({ addresses: new AddressPolicy({ deniedRanges: config.render_service.egress_denied_ranges }), refreshMs: config.edge.robots_txt.refresh_minutes * 60_000 });
}

function openPageRefresher(config: AppConfig, store: CacheStore, log: Logger): PageRefresher {
  const { tabs, reservation_percent, chromium_path, egress_denied_ranges } = config.render_service;
  const addresses = new AddressPolicy({ deniedRanges: egress_denied_ranges });
  const pool = new ChromiumTabPool({ executablePath: chromium_path, tabs, reservationPercent: reservation_percent, addresses, log });
  return new CachingPageRefresher({ catalog: new HostCatalog(config.hosts), store, pool, addresses, log });
}

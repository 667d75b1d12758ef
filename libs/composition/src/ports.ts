import type { AppConfig } from '@bpc/config';
import type { EventLog } from '@bpc/event-log';
import type { ExplorerStore } from '@bpc/explorer-store';
import type { QueueStore } from '@bpc/queue-store';
import type { CacheStore } from '@bpc/cache-store';
import type { PageRefresher } from '@bpc/renderer';
import type { RateLimitStore } from '@bpc/rate-limit';
import type { ExportSlots } from '@bpc/export-slots';
import type { WarmUpTurns } from '@bpc/daemon';
import type { BotVerifier } from '@bpc/bot-verification';
import type { RobotsTxtKeeper } from '@bpc/robots-txt';
import type { ObjectStore } from '@bpc/object-store';

/** The adapters one process opened; apps in the same process share them. */
export interface Ports {
  readonly eventLog?: EventLog;
  readonly queueStore?: QueueStore;
  readonly explorerStore?: ExplorerStore;
  /** Page bodies and export files: files under `data_dir`, or an S3-compatible bucket. */
  readonly objectStore?: ObjectStore;
  /** Cache entry metadata (memory + sidecar files, or Redis) over page bodies under `cache/` in the object store. */
  readonly cacheStore?: CacheStore;
  /** Renders (Chromium tab pool) or fetches pages into the cache store. */
  readonly pageRefresher?: PageRefresher;
  /** Public API rate-limit counters (memory, or Redis shared by replicas). */
  readonly rateLimitStore?: RateLimitStore;
  /** Export slots per account, the export id counter and their leases (memory, or Redis shared by replicas). */
  readonly exportSlots?: ExportSlots;
  /** Which daemon runs each sitemap warm-up interval (memory, or Redis shared by the daemons). */
  readonly warmUpTurns?: WarmUpTurns;
  /** Checks bots' claims (published ranges from `edge.bot_verification.ranges_dir`, reverse DNS on its servers). */
  readonly botVerifier?: BotVerifier;
  /** The websites' robots.txt files, fetched under the renderer's egress rules. */
  readonly robotsTxt?: RobotsTxtKeeper;
}

export type PortName = keyof Ports;

/** Which port each app needs, so a process opens only what its apps use. */
export type PortNeeds = ReadonlySet<PortName>;

export function adapterName(config: AppConfig, port: PortName): string {
  switch (port) {
    case 'eventLog':
      return `event_log (${config.adapters.event_log})`;
    case 'queueStore':
      return `queue_store (${config.adapters.queue_store})`;
    case 'explorerStore':
      return `explorer_store (${config.adapters.explorer_store})`;
    case 'objectStore':
      return `object_store (${config.adapters.object_store})`;
    case 'cacheStore':
      return `cache_store (${config.adapters.queue_store === 'redis' ? 'redis' : 'file'})`;
    case 'pageRefresher':
      return 'renderer';
    case 'rateLimitStore':
      return `rate_limit_store (${config.adapters.queue_store})`;
    case 'exportSlots':
      return `export_slots (${config.adapters.queue_store})`;
    case 'warmUpTurns':
      return `warm_up_turns (${config.adapters.queue_store})`;
    case 'botVerifier':
      return 'bot_verifier';
    case 'robotsTxt':
      return 'robots_txt';
  }
}

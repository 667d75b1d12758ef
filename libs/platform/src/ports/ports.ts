import type { AppConfig } from '@bpc/config';
import type { EventLog } from '@bpc/event-log';
import type { ExplorerStore } from '@bpc/explorer-store';
import type { QueueStore } from '@bpc/queue-store';

/** The adapters one process opened; apps in the same process share them. */
export interface Ports {
  readonly eventLog?: EventLog;
  readonly queueStore?: QueueStore;
  readonly explorerStore?: ExplorerStore;
}

export type PortName = keyof Ports;

/** Which port each app needs, so a process opens only what its apps use. */
export type PortNeeds = ReadonlySet<PortName>;

export const APP_CONFIG = Symbol('APP_CONFIG');
export const LOGGER = Symbol('LOGGER');
export const CLOCK = Symbol('CLOCK');

export function adapterName(config: AppConfig, port: PortName): string {
  switch (port) {
    case 'eventLog':
      return `event_log (${config.adapters.event_log})`;
    case 'queueStore':
      return `queue_store (${config.adapters.queue_store})`;
    case 'explorerStore':
      return `explorer_store (${config.adapters.explorer_store})`;
  }
}

import { hostname } from 'node:os';
import type { AppConfig } from '@bpc/config';

export const DAEMON_ID = Symbol('DAEMON_ID');

/** The configured id, or `<hostname>-<pid>`. */
export function daemonIdFrom(config: AppConfig): string {
  return config.daemon.id ?? `${hostname()}-${process.pid}`;
}

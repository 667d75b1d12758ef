import type { AppConfig } from '@bpc/config';
import type { AppSpec } from '@bpc/composition';
import { startConfiguredDemoSite } from '@bpc/demo-site';
import type { Logger } from 'pino';
import { daemonApp } from '../../daemon/src/daemon.app';
import { edgeApp } from '../../edge/src/edge.app';
import { projectorApp } from '../../projector/src/projector.app';
import { publicApiApp } from '../../public-api/src/public-api.app';

/** Every app in one process, sharing one set of adapters. */
export const standaloneApps: readonly AppSpec[] = [projectorApp, daemonApp, publicApiApp, edgeApp];

/** The demo site, when the configuration asks for it (`demo_site`): started before the apps, so the first render finds it. */
export async function serveDemoSite(config: AppConfig, logger: Logger): Promise<void> {
  const started = await startConfiguredDemoSite(config);
  if (started) logger.info({ url: started.url, hostId: config.demo_site?.host_id }, 'demo site listening');
}

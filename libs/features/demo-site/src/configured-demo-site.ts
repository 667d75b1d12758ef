import { type AppConfig, demoSitePort } from '@bpc/config';
import { DemoSiteServer } from './demo-site-server';

/**
 * Starts the demo site the configuration asks for (`demo_site`), at its
 * host's origin and known to bots by that host's first hostname; undefined
 * when it asks for none. The configuration check guarantees the host and its
 * `http://127.0.0.1:<port>` origin.
 */
export async function startConfiguredDemoSite(config: AppConfig): Promise<{ server: DemoSiteServer; url: string } | undefined> {
  const hostId = config.demo_site?.host_id;
  const host = config.hosts.find((h) => h.host_id === hostId);
  const port = demoSitePort(host?.origin);
  if (!host || port === undefined) return undefined;
  const server = new DemoSiteServer(`https://${host.hostnames[0]}`);
  return { server, url: await server.start(port) };
}

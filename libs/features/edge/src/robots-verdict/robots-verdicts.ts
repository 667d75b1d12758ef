import { OTHER_BOT } from '@bpc/bots';
import type { HostConfig } from '@bpc/config';
import type { RobotsTxtKeeper, RobotsVerdict } from '@bpc/robots-txt';
import type { SitemapSite } from '@bpc/sitemaps';
import type { PageRequest } from '../serve-page/page-request';

/**
 * Whether each bot request's bot was allowed its URL by the host's
 * robots.txt, by the bot's name as its robots.txt product token (`Googlebot`,
 * `GPTBot`). A User-Agent that names no known bot is `unknown`: no group of
 * the file is known to apply to it. Without a keeper (`edge.robots_txt.enabled:
 * false`), always `unknown`.
 */
export class RobotsVerdicts {
  private readonly sites = new Map<number, SitemapSite>();

  constructor(
    private readonly keeper: RobotsTxtKeeper | undefined,
    hosts: readonly HostConfig[],
  ) {
    for (const host of hosts) this.sites.set(host.host_id, { hostnames: host.hostnames, origin: host.origin });
  }

  of(page: PageRequest): RobotsVerdict {
    const token = page.bot.identity.name;
    const site = this.sites.get(page.hostId);
    if (this.keeper === undefined || token === OTHER_BOT || site === undefined) return 'unknown';
    // The URL is normalised (`scheme://host[:port]/path…`): its origin ends at the first slash after the scheme's two.
    const origin = page.url.slice(0, page.url.indexOf('/', page.url.indexOf('//') + 2));
    return this.keeper.verdict(site, origin, token, page.url);
  }
}

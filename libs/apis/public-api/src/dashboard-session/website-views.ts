import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@bpc/config';
import { IdentityIndex } from '@bpc/identity';
import { APP_CONFIG, listenUrl } from '@bpc/platform';
import type { WebsiteViewDto } from './dashboard-session.dto';

/** The websites a user has a role on, as the dashboard shows them; the edge URL from configuration, never from a request. */
@Injectable()
export class WebsiteViews {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly identity: IdentityIndex,
  ) {}

  async of(userId: string): Promise<WebsiteViewDto[]> {
    await this.identity.ready();
    const roles = this.identity.view().roles.get(userId);
    const edgeUrl = this.config.dashboard.public_edge_url ?? listenUrl(this.config.listen.host, this.config.listen.edge);
    // Roles on websites no longer configured are left out: the API refuses them anyway.
    return this.config.websites
      .flatMap((website) => {
        const role = roles?.get(website.id);
        if (!role) return [];
        const hostnames = this.config.hosts.find((h) => h.host_id === website.host_id)?.hostnames ?? [];
        return [{ id: website.id, role, platformModule: website.platform_module, hostnames: [...hostnames], edgeUrl }];
      })
      .sort((a, b) => a.id.localeCompare(b.id));
  }
}

import { Module } from '@nestjs/common';
import { systemClock } from '@bpc/domain';
import { IdentityIndex } from '@bpc/identity';
import { MetricsModule, serveOpenApi } from '@bpc/platform';
import { AppSpec, RuntimeModule } from '@bpc/composition';
import { installAdminAuthentication, installBearerAuthentication, installResponseCompression, PUBLIC_OPENAPI, PublicApiBaseUrl, PublicApiModule, RESERVED_PREFIXES, serveDashboard, TokenRateLimiter } from '@bpc/public-api';
import { DOWNLOAD_PATH, ExportsModule } from '@bpc/exports';
import { installMcpEndpoint, MCP_RESERVED_PREFIXES } from '@bpc/agent-connector';

@Module({})
class PublicApiAppModule {}

/** The public, token-authenticated API (spec/public-api.md): Data Explorer and cache operations. */
export const publicApiApp: AppSpec = {
  name: 'public-api',
  uses: ['eventLog', 'explorerStore', 'queueStore', 'cacheStore', 'objectStore', 'rateLimitStore', 'exportSlots'],
  // The Data Explorer needs ClickHouse alone; writes (cache operations, exports, imports) answer 503 on their own while reads go on.
  criticalPorts: ['explorerStore'],
  module: (runtime) => ({ module: PublicApiAppModule, imports: [RuntimeModule.forRuntime(runtime, publicApiApp), MetricsModule, PublicApiModule, ExportsModule] }),
  configure: async (app, runtime) => {
    const limiter = new TokenRateLimiter(runtime.ports.rateLimitStore!, runtime.config.rate_limit, runtime.logger.child({ component: 'rate-limit' }));
    const websiteFacts = (id: string) => {
      const website = runtime.config.websites.find((w) => w.id === id);
      return website && { id: website.id, accountId: website.account_id, platformModule: website.platform_module };
    };
    const fastify = app.getHttpAdapter().getInstance();
    await installResponseCompression(fastify);
    installBearerAuthentication(fastify, app.get(IdentityIndex), runtime.clock ?? systemClock, limiter, websiteFacts);
    installAdminAuthentication(fastify, runtime.config.internal_auth_key_sha256);
    serveOpenApi(app, PUBLIC_OPENAPI, runtime.config);
    // The agent connector (MCP, Streamable HTTP): a client of the routes above, run in process.
    const baseUrl = app.get(PublicApiBaseUrl);
    installMcpEndpoint(fastify, { identity: app.get(IdentityIndex), clock: runtime.clock ?? systemClock, baseUrl: () => baseUrl.url() });
    // The dashboard (apps/dashboard) at `/`: a browser client of this same API.
    serveDashboard(fastify, { reserved: [...RESERVED_PREFIXES, ...MCP_RESERVED_PREFIXES, DOWNLOAD_PATH] });
  },
};

import { Module } from '@nestjs/common';
import { acceptEmptyJsonBodies, DAEMON_OPENAPI, DaemonModule, installInternalAuth } from '@bpc/daemon';
import { AppSpec, RuntimeModule, serveOpenApi } from '@bpc/platform';

@Module({})
class DaemonAppModule {}

/** The internal cache daemon API (spec/daemon-api.md). */
export const daemonApp: AppSpec = {
  name: 'daemon',
  uses: ['eventLog', 'queueStore', 'cacheStore', 'pageRefresher'],
  module: (runtime) => ({ module: DaemonAppModule, imports: [RuntimeModule.forRuntime(runtime, daemonApp.uses), DaemonModule] }),
  configure: (app, runtime) => {
    const fastify = app.getHttpAdapter().getInstance();
    installInternalAuth(fastify, runtime.config.internal_auth_key_sha256);
    acceptEmptyJsonBodies(fastify);
    serveOpenApi(app, DAEMON_OPENAPI);
  },
};

import { Module } from '@nestjs/common';
import { acceptEmptyJsonBodies, DAEMON_OPENAPI, DaemonModule, installInternalAuth } from '@bpc/daemon';
import { serveOpenApi } from '@bpc/platform';
import { AppSpec, RuntimeModule } from '@bpc/composition';

@Module({})
class DaemonAppModule {}

/** The internal cache daemon API (spec/daemon-api.md). */
export const daemonApp: AppSpec = {
  name: 'daemon',
  uses: ['eventLog', 'queueStore', 'cacheStore', 'objectStore', 'pageRefresher', 'warmUpTurns'],
  // Every endpoint reads the queue store, every change is appended to the log; renders failing on the cache store are retried.
  criticalPorts: ['eventLog', 'queueStore'],
  module: (runtime) => ({ module: DaemonAppModule, imports: [RuntimeModule.forRuntime(runtime, daemonApp), DaemonModule] }),
  configure: (app, runtime) => {
    const fastify = app.getHttpAdapter().getInstance();
    installInternalAuth(fastify, runtime.config.internal_auth_key_sha256);
    acceptEmptyJsonBodies(fastify);
    serveOpenApi(app, DAEMON_OPENAPI, runtime.config);
  },
};

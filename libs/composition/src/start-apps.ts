import type { Server } from 'node:http';
import { checkAlertTargets } from '@bpc/alerts';
import { AppConfig, ConfigError, processEnvironment } from '@bpc/config';
import type { Clock } from '@bpc/domain';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { createHttpApp, InProcessSignals, ProcessShutdown, ServingLoad, settlesWithin, SHUTDOWN_BOUNDS_MS } from '@bpc/platform';
import { closePorts, openPorts } from './open-ports';
import type { PortName } from './ports';
import type { AppRuntime } from './runtime.module';
import type { AppName, AppSpec } from './app-spec';

export interface RunningApps {
  readonly runtime: AppRuntime;
  /** Base URL each app listens on (the real port when the config says 0). */
  readonly urls: Readonly<Partial<Record<AppName, string>>>;
  readonly apps: Readonly<Partial<Record<AppName, NestFastifyApplication>>>;
  /** Graceful shutdown, see `stopApps`. */
  close(): Promise<void>;
}

/**
 * Opens the ports the apps need once, then starts each app on its port. The
 * projector starts first so the others find the projections running; on any
 * failure what was started is closed again.
 */
export async function startApps(
  specs: readonly AppSpec[],
  config: AppConfig,
  logger: Logger,
  clock?: Clock,
  /** Begun by the caller on a signal, also while startup goes on: the apps started answer not ready, no further app starts. */
  shutdown: ProcessShutdown = new ProcessShutdown(),
): Promise<RunningApps> {
  assertProjectionsRunHere(specs, config);
  // Part of loading the configuration, in every process: it takes DNS, which the synchronous load cannot.
  await checkAlertTargets(config, processEnvironment());
  const needs = new Set<PortName>(specs.flatMap((s) => s.uses));
  const ports = await openPorts(config, needs, logger, clock);
  const runtime: AppRuntime = { config, logger, ports, clock, signals: new InProcessSignals(), servingLoad: new ServingLoad(), shutdown };
  const ordered = [...specs].sort((a, b) => Number(b.name === 'projector') - Number(a.name === 'projector'));
  const started: StartedApp[] = [];
  const urls: Partial<Record<AppName, string>> = {};
  try {
    for (const spec of ordered) {
      if (shutdown.started) break;
      const app = await createHttpApp(spec.module(runtime), logger.child({ component: spec.name }));
      await spec.configure?.(app, runtime);
      started.push({ spec, app });
      await app.listen(config.listen[listenKey(spec.name)], config.listen.host);
      urls[spec.name] = await app.getUrl();
    }
  } catch (error) {
    await stopApps(started, runtime, logger);
    throw error;
  }
  return {
    runtime,
    urls,
    apps: Object.fromEntries(started.map((s) => [s.spec.name, s.app])),
    close: () => stopApps(started, runtime, logger),
  };
}

/**
 * The file event log and the memory queue store live inside one process:
 * without the projector beside them nothing would apply the events, and
 * every write would time out. Such a deployment is refused at startup.
 */
function assertProjectionsRunHere(specs: readonly AppSpec[], config: AppConfig): void {
  const inProcess = config.adapters.event_log === 'file' || config.adapters.queue_store === 'memory';
  if (inProcess && !specs.some((s) => s.name === 'projector')) {
    throw new ConfigError('adapters', [
      {
        key: 'adapters',
        reason: `event_log "${config.adapters.event_log}" and queue_store "${config.adapters.queue_store}" keep their state in one process: run every app together (apps/standalone, \`npm start\`), or choose kafka and redis to run apps apart`,
      },
    ]);
  }
}

function listenKey(name: AppName): 'public_api' | 'daemon' | 'edge' | 'projector' {
  return name === 'public-api' ? 'public_api' : name;
}

/**
 * Stops in the order that loses nothing, each step bounded
 * (`SHUTDOWN_BOUNDS_MS`): first every app answers not ready and every HTTP
 * app stops accepting, all at once; they finish their in-flight requests
 * (which may wait for projections) and their own work in parallel, as they
 * share only the ports, which stay open. Then the projector stops after its
 * batch in progress and commits, and only then are the ports flushed and
 * closed.
 */
async function stopApps(started: readonly StartedApp[], runtime: AppRuntime, logger: Logger): Promise<void> {
  runtime.shutdown.begin();
  const { httpDrain, appStop, projectorStop } = SHUTDOWN_BOUNDS_MS;
  const isProjector = (s: StartedApp) => s.spec.name === 'projector';
  await Promise.all(started.filter((s) => !isProjector(s)).map((s) => stopApp(s, httpDrain, appStop, logger)));
  // Its own HTTP server answers health and metrics only: a second is plenty.
  await Promise.all(started.filter(isProjector).map((s) => stopApp(s, 1_000, projectorStop - 1_000, logger)));
  await closePorts(runtime.ports, logger);
}

interface StartedApp {
  readonly spec: AppSpec;
  readonly app: NestFastifyApplication;
}

/**
 * Closes one app: its server stops accepting at once, requests in flight get
 * `drainMs` before their connections are closed, and the app's own shutdown
 * work (flushes, renders, exports) `stopMs` more; past that it is left behind.
 */
async function stopApp({ spec, app }: StartedApp, drainMs: number, stopMs: number, logger: Logger): Promise<void> {
  const server = app.getHttpServer() as Server;
  let drained = !server.listening;
  server.once('close', () => (drained = true));
  const cutOff = setTimeout(() => {
    if (drained) return;
    logger.warn({ app: spec.name, drainMs }, 'requests still in flight at the drain bound: closing their connections');
    server.closeAllConnections();
  }, drainMs);
  const closing = app.close().catch((error) => logger.error({ err: error, app: spec.name }, 'error while stopping app'));
  try {
    if (!(await settlesWithin(closing, drainMs + stopMs))) logger.error({ app: spec.name, ms: drainMs + stopMs }, 'app did not stop in time: going on without it');
  } finally {
    clearTimeout(cutOff);
  }
}

import { AppConfig, ConfigError } from '@bpc/config';
import type { Clock } from '@bpc/domain';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { createHttpApp } from '../http/create-http-app';
import { closePorts, openPorts } from '../ports/open-ports';
import type { PortName } from '../ports/ports';
import { InProcessSignals } from '../ports/in-process-signals';
import type { AppRuntime } from '../ports/runtime.module';
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
export async function startApps(specs: readonly AppSpec[], config: AppConfig, logger: Logger, clock?: Clock): Promise<RunningApps> {
  assertProjectionsRunHere(specs, config);
  const needs = new Set<PortName>(specs.flatMap((s) => s.uses));
  const ports = await openPorts(config, needs, logger);
  const runtime: AppRuntime = { config, logger, ports, clock, signals: new InProcessSignals() };
  const ordered = [...specs].sort((a, b) => Number(b.name === 'projector') - Number(a.name === 'projector'));
  const started: { spec: AppSpec; app: NestFastifyApplication }[] = [];
  const urls: Partial<Record<AppName, string>> = {};
  try {
    for (const spec of ordered) {
      const app = await createHttpApp(spec.module(runtime), logger.child({ component: spec.name }));
      spec.configure?.(app, runtime);
      started.push({ spec, app });
      await app.listen(config.listen[listenKey(spec.name)], config.listen.host);
      urls[spec.name] = await app.getUrl();
    }
  } catch (error) {
    await stopApps(started, ports, logger);
    throw error;
  }
  return {
    runtime,
    urls,
    apps: Object.fromEntries(started.map((s) => [s.spec.name, s.app])),
    close: () => stopApps(started, ports, logger),
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
 * Stops in the order that loses nothing: HTTP apps stop accepting and finish
 * their in-flight requests (which may wait for projections), then the
 * projector stops after its batch in progress and commits, and only then are
 * the ports flushed and closed.
 */
async function stopApps(started: readonly { spec: AppSpec; app: NestFastifyApplication }[], ports: AppRuntime['ports'], logger: Logger): Promise<void> {
  const reversed = [...started].reverse();
  for (const { spec, app } of reversed) {
    try {
      await app.close();
    } catch (error) {
      logger.error({ err: error, app: spec.name }, 'error while stopping app');
    }
  }
  await closePorts(ports, logger);
}

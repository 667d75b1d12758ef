import type { DynamicModule } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { PortName } from './ports';
import type { AppRuntime } from './runtime.module';

export const APP_NAMES = ['public-api', 'daemon', 'edge', 'projector'] as const;
export type AppName = (typeof APP_NAMES)[number];

/** One deployable: its Nest module, the ports it uses, and HTTP setup Nest cannot express. */
export interface AppSpec {
  readonly name: AppName;
  readonly uses: readonly PortName[];
  /**
   * The ports of `uses` without which the app cannot do its main job: one of
   * them down makes `/health/ready` 503 (out of the load balancer). Any other
   * port that is down is listed as degraded and readiness stays 200: the
   * outage is usually shared by every replica, and taking them all out would
   * also refuse what still works.
   */
  readonly criticalPorts: readonly PortName[];
  module(runtime: AppRuntime): DynamicModule;
  /** Runs after the app is created and before it listens (Fastify hooks, plugins, error handler); awaited, so a plugin can load before the app's routes are added. */
  configure?(app: NestFastifyApplication, runtime: AppRuntime): void | Promise<void>;
}

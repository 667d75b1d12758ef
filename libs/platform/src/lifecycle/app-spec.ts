import type { DynamicModule } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { PortName } from '../ports/ports';
import type { AppRuntime } from '../ports/runtime.module';

export const APP_NAMES = ['public-api', 'daemon', 'edge', 'projector'] as const;
export type AppName = (typeof APP_NAMES)[number];

/** One deployable: its Nest module, the ports it uses, and HTTP setup Nest cannot express. */
export interface AppSpec {
  readonly name: AppName;
  readonly uses: readonly PortName[];
  module(runtime: AppRuntime): DynamicModule;
  /** Runs after the app is created and before it listens (Fastify hooks, error handler). */
  configure?(app: NestFastifyApplication, runtime: AppRuntime): void;
}

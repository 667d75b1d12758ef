import { DynamicModule, Global, Module } from '@nestjs/common';
import type { AppConfig } from '@bpc/config';
import { Clock, HostCatalog, systemClock } from '@bpc/domain';
import { EVENT_LOG } from '@bpc/event-log';
import { EXPLORER_STORE } from '@bpc/explorer-store';
import { QUEUE_STORE } from '@bpc/queue-store';
import { CACHE_STORE } from '@bpc/cache-store';
import { OBJECT_STORE } from '@bpc/object-store';
import { PAGE_REFRESHER } from '@bpc/renderer';
import { RATE_LIMIT_STORE } from '@bpc/rate-limit';
import { EXPORT_SLOTS } from '@bpc/export-slots';
import { OPEN_OPERATOR_SQL_STORES } from '@bpc/public-api';
import { WARM_UP_TURNS } from '@bpc/daemon';
import { BOT_VERIFIER } from '@bpc/bot-verification';
import { ROBOTS_TXT_KEEPER } from '@bpc/robots-txt';
import type { Logger } from 'pino';
import { APP_CONFIG, CLOCK, IN_PROCESS_SIGNALS, InProcessSignals, LOGGER, PROCESS_SHUTDOWN, ProcessShutdown, READINESS_CHECKS, ReadinessCheck, SERVING_LOAD, ServingLoad } from '@bpc/platform';
import type { AppSpec } from './app-spec';
import { assertEngineReached } from './open-ports';
import { operatorSqlStoresOpener } from './operator-sql-stores';
import { adapterName, PortName, Ports } from './ports';

/** What every app of a process shares: validated config, logger, opened adapters. */
export interface AppRuntime {
  readonly config: AppConfig;
  readonly logger: Logger;
  readonly ports: Ports;
  /** Defaults to the system clock; tests pass their own. */
  readonly clock?: Clock;
  /** Shared by the apps of this runtime: one channel per process, so a signal reaches every app in it. */
  readonly signals: InProcessSignals;
  /** Shared by the apps of this runtime: the edge announces its serving, work beside it gives way while it is saturated. */
  readonly servingLoad: ServingLoad;
  /** Set when the process begins shutting down: every app's readiness answers 503 from then on. */
  readonly shutdown: ProcessShutdown;
}

const PORT_TOKENS: Record<PortName, symbol> = {
  eventLog: EVENT_LOG,
  queueStore: QUEUE_STORE,
  explorerStore: EXPLORER_STORE,
  objectStore: OBJECT_STORE,
  cacheStore: CACHE_STORE,
  pageRefresher: PAGE_REFRESHER,
  rateLimitStore: RATE_LIMIT_STORE,
  exportSlots: EXPORT_SLOTS,
  warmUpTurns: WARM_UP_TURNS,
  botVerifier: BOT_VERIFIER,
  robotsTxt: ROBOTS_TXT_KEEPER,
};

/**
 * Hands the process's runtime to one Nest app. The adapters are opened
 * outside Nest (see `runApps`) so that several apps in one process share a
 * single event log, store and engine.
 */
@Global()
@Module({})
export class RuntimeModule {
  static forRuntime(runtime: AppRuntime, app: Pick<AppSpec, 'uses' | 'criticalPorts'>): DynamicModule {
    const { uses, criticalPorts } = app;
    const portProviders = uses.map((name) => {
      const instance = runtime.ports[name];
      if (!instance) throw new Error(`the ${name} port is not open in this process`);
      return { provide: PORT_TOKENS[name], useValue: instance };
    });
    const unused = criticalPorts.filter((name) => !uses.includes(name));
    if (unused.length > 0) throw new Error(`critical ports not used by the app: ${unused.join(', ')}`);
    const checks: ReadinessCheck[] = uses.flatMap((name) => {
      const port = runtime.ports[name]!;
      // The renderer starts its browser on first use; readiness does not launch it.
      if (!('check' in port)) return [];
      const check = async () => {
        assertEngineReached(runtime.ports, name);
        await port.check();
      };
      return [{ name: adapterName(runtime.config, name), critical: criticalPorts.includes(name), check }];
    });
    const providers = [
      { provide: APP_CONFIG, useValue: runtime.config },
      { provide: LOGGER, useValue: runtime.logger },
      { provide: CLOCK, useValue: runtime.clock ?? systemClock },
      { provide: IN_PROCESS_SIGNALS, useValue: runtime.signals },
      { provide: SERVING_LOAD, useValue: runtime.servingLoad },
      { provide: PROCESS_SHUTDOWN, useValue: runtime.shutdown },
      { provide: HostCatalog, useValue: new HostCatalog(runtime.config.hosts) },
      // The operator SQL console's engine, chosen here like the ports; it opens its stores on its first statement.
      { provide: OPEN_OPERATOR_SQL_STORES, useValue: operatorSqlStoresOpener(runtime.config) },
      { provide: READINESS_CHECKS, useValue: checks },
      ...portProviders,
    ];
    return { module: RuntimeModule, providers, exports: providers.map((p) => p.provide) };
  }
}

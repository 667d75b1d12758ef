import { type AppConfig, ConfigError, loadConfig } from '@bpc/config';
import type { Logger } from 'pino';
import type { AppSpec } from './app-spec';
import { createLogger, ProcessShutdown } from '@bpc/platform';
import { type RunningApps, startApps } from './start-apps';

/** Something a process serves beside its apps: started before them, it lives until the process exits (the standalone demo site). */
export type Companion = (config: AppConfig, logger: Logger) => Promise<void>;

/**
 * Process entry point of every app: a bad configuration stops startup with
 * the key and the reason on stderr (exit 2); SIGTERM/SIGINT shut down
 * gracefully (exit 0); an unhandled rejection or uncaught exception is logged
 * as fatal and shuts down gracefully too (exit 1); a second signal or
 * `shutdown_grace_ms` forces exit.
 */
export async function runMain(processName: string, specs: readonly AppSpec[], companions: readonly Companion[] = []): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${processName}: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.logging.level, processName);
  const graceMs = config.shutdown_grace_ms;
  // Listening starts before startup ends (one app after another), so a
  // signal can come while later apps still start: it is taken from the start
  // (the apps started answer not ready, no further app starts) and acted on
  // once everything that started can be closed.
  const processShutdown = new ProcessShutdown();
  let running: RunningApps | undefined;
  let stopping = false;
  let exitCode = 0;
  const close = (apps: RunningApps) => {
    // From here, not from the signal: the steps' bounds add up to less than the grace, an app still starting does not.
    setTimeout(() => {
      logger.error({ graceMs }, 'shutdown took too long: exiting');
      process.exit(1);
    }, graceMs).unref();
    closeAndExit(apps, logger, () => exitCode);
  };
  const shutdown = (reason: string) => {
    stopping = true;
    processShutdown.begin();
    logger.info({ reason }, 'shutting down');
    if (running) close(running);
  };
  const onSignal = (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    shutdown(signal);
  };
  // The process state is unknown after such an error: stop taking work, finish what can be finished, exit 1.
  const onFatal = (origin: 'unhandledRejection' | 'uncaughtException') => (error: unknown) => {
    logger.fatal({ err: error, origin }, `${origin}: shutting down`);
    exitCode = 1;
    if (!stopping) shutdown(origin);
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('unhandledRejection', onFatal('unhandledRejection'));
  process.on('uncaughtException', onFatal('uncaughtException'));

  try {
    for (const companion of companions) await companion(config, logger);
    running = await startApps(specs, config, logger, undefined, processShutdown);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${processName}: ${error.message}\n`);
      process.exit(2);
    }
    logger.fatal({ err: error }, 'startup failed');
    process.exit(1);
  }
  if (stopping) {
    close(running);
    return;
  }
  logger.info({ urls: running.urls, adapters: config.adapters, dataDir: config.data_dir }, 'ready');
}

function closeAndExit(running: RunningApps, logger: Logger, exitCode: () => number): void {
  running.close().then(
    () => {
      logger.info({}, 'stopped');
      process.exit(exitCode());
    },
    (error) => {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    },
  );
}

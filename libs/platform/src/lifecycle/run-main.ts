import { ConfigError, loadConfig } from '@bpc/config';
import type { Logger } from 'pino';
import { createLogger } from '../logging/create-logger';
import type { AppSpec } from './app-spec';
import { type RunningApps, startApps } from './start-apps';

const SHUTDOWN_GRACE_MS = 30_000;

/**
 * Process entry point of every app: a bad configuration stops startup with
 * the key and the reason on stderr (exit 2); SIGTERM/SIGINT shut down
 * gracefully; a second signal or the grace period forces exit.
 */
export async function runMain(processName: string, specs: readonly AppSpec[]): Promise<void> {
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
  // Listening starts before startup ends (one app after another), so a
  // signal can come while later apps still start: it is taken from the start
  // and acted on once everything that started can be closed.
  let running: RunningApps | undefined;
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error({ graceMs: SHUTDOWN_GRACE_MS }, 'shutdown took too long: exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    if (running) closeAndExit(running, logger);
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  try {
    running = await startApps(specs, config, logger);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${processName}: ${error.message}\n`);
      process.exit(2);
    }
    logger.fatal({ err: error }, 'startup failed');
    process.exit(1);
  }
  logger.info({ urls: running.urls, adapters: config.adapters, dataDir: config.data_dir }, 'ready');
  if (stopping) closeAndExit(running, logger);
}

function closeAndExit(running: RunningApps, logger: Logger): void {
  running.close().then(
    () => {
      logger.info({}, 'stopped');
      process.exit(0);
    },
    (error) => {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    },
  );
}

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureTestTools } from './tools';
import { startKafkaMock, startRedis } from './engines';
import { EVENT_AUDIT_DIR_ENV } from './event-audit';

/**
 * Starts the shared engines once per jest run on free loopback ports. Workers
 * inherit the addresses through the environment; suites that break an engine
 * on purpose start their own.
 */
export default async function globalSetup(): Promise<void> {
  ensureTestTools();
  const [redis, kafka] = await Promise.all([startRedis(), startKafkaMock()]);
  process.env.TEST_REDIS_URL = redis.url;
  process.env.TEST_KAFKA_BROKERS = kafka.url;
  process.env[EVENT_AUDIT_DIR_ENV] = mkdtempSync(path.join(tmpdir(), 'bpc-event-audit-'));
  (globalThis as Record<string, unknown>).__BPC_ENGINES__ = [redis, kafka];
}

import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AppConfig, validateConfig } from '@bpc/config';
import { testEngines } from './env';
import { watchEventLogOf } from './event-audit';

export type RuntimeMode = 'standalone' | 'cluster';

export const TEST_INTERNAL_KEY = 'test-internal-key';

/**
 * The tests' Kafka session timeout: 6 s, the broker's least, not the default
 * 30 s. A group's rebalance lasts up to it (the mock broker waits that long
 * for the members when one joins or dies), and so does a killed member's
 * partitions standing still.
 */
export const TEST_KAFKA_SESSION_TIMEOUT_MS = 6_000;

/** Where cluster mode finds Kafka and Redis. */
export interface ClusterEngines {
  readonly kafkaBrokers: string[];
  readonly redisUrl: string;
}

/**
 * A valid configuration for tests: every app on a free port (0), a fresh
 * data directory, and in cluster mode the shared test engines (or `engines`,
 * when given: outside jest, e.g. in a bench) under a namespace / key prefix
 * of its own so parallel suites never meet.
 */
export function testConfig(mode: RuntimeMode, overrides: Record<string, unknown> = {}, engines?: ClusterEngines): AppConfig {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bpc-test-'));
  const unique = randomUUID().slice(0, 8);
  const clusterEngines = mode === 'cluster' ? (engines ?? testEngines()) : undefined;
  const cluster = clusterEngines
    ? {
        adapters: { event_log: 'kafka', queue_store: 'redis', explorer_store: 'chdb' },
        kafka: { brokers: clusterEngines.kafkaBrokers, client_id: `test-${unique}`, namespace: `t${unique}`, session_timeout_ms: TEST_KAFKA_SESSION_TIMEOUT_MS },
        redis: { url: clusterEngines.redisUrl, key_prefix: `t${unique}` },
        exports: { signing_key: `test-link-signing-key-${unique}-0123456789` },
      }
    : { adapters: { event_log: 'file', queue_store: 'memory', explorer_store: 'chdb' } };
  const config = validateConfig(
    {
      data_dir: dataDir,
      internal_auth_key: TEST_INTERNAL_KEY,
      logging: { level: 'warn' },
      listen: { host: '127.0.0.1', public_api: 0, daemon: 0, edge: 0, projector: 0 },
      hosts: [
        {
          host_id: 1,
          hostnames: ['www.example.com'],
          dimensions: [
            { id: 1, name: 'desktop', match: { fallback: true } },
            { id: 2, name: 'mobile', match: { user_agent: 'Mobile' } },
          ],
          url_rules: [{ pattern: '^/admin/', action: 'ignore' }],
        },
        { host_id: 2, hostnames: ['shop.example.org'], dimensions: [{ id: 1, name: 'desktop' }] },
      ],
      websites: [{ id: 'demo', host_id: 1, account_id: 'acme' }],
      ...cluster,
      ...overrides,
      // Merged, not replaced: a test setting other export options keeps the cluster's signing key.
      ...(cluster && isRecord(overrides.exports) ? { exports: { ...cluster.exports, ...overrides.exports } } : {}),
    },
    `test config (${mode})`,
  );
  watchEventLogOf(config);
  return config;
}

/** Host 1 (www.example.com) on `originUrl`, both dimensions (desktop as the fallback, mobile) passing bots through to the origin. */
export function bypassHost(originUrl: string) {
  return {
    host_id: 1,
    hostnames: ['www.example.com'],
    origin: originUrl,
    dimensions: [
      { id: 1, name: 'desktop', match: { fallback: true }, action: 'bypass' },
      { id: 2, name: 'mobile', match: { user_agent: 'Mobile' }, action: 'bypass' },
    ],
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

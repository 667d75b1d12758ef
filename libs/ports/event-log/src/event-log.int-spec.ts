import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { testEngines } from '@bpc/testing';
import { describeEventLogContract } from './event-log.contract-spec';
import { FileEventLog } from './file-event-log';
import { KafkaEventLog } from './kafka-event-log';
import { NamespacedEventLog } from './namespaced-event-log';

describeEventLogContract('file', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'bpc-event-log-'));
  return {
    // Small segments, so the contract also runs across segment rolls.
    open: () => FileEventLog.open({ dir, partitions: 4, segmentBytes: 8 * 1024 }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

describeEventLogContract('kafka', async () => {
  const { kafkaBrokers } = testEngines();
  return {
    open: async () =>
      new KafkaEventLog({
        brokers: kafkaBrokers,
        clientId: 'event-log-contract',
        // The mock broker does not answer a waiting fetch early when records arrive.
        fetchMaxWaitMs: 100,
        // The mock holds a rejoin after the last member left for (session timeout - 1 s).
        sessionTimeoutMs: 4_000,
      }),
    // Topics and groups carry a random suffix per test, so nothing is left to clean on the shared broker.
    cleanup: async () => undefined,
  };
});

// The wrapper cluster deployments use to share a Kafka cluster; the file log underneath keeps it fast.
describeEventLogContract('namespaced (over file)', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'bpc-event-log-ns-'));
  return {
    open: async () => new NamespacedEventLog(await FileEventLog.open({ dir, partitions: 4, segmentBytes: 8 * 1024 }), 'tenant-a'),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

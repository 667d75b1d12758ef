import { randomUUID } from 'node:crypto';
import { testEngines } from '@bpc/testing';
import { MemoryQueueStore } from './memory-queue-store';
import { describeQueueStoreContract } from './queue-store.contract-spec';
import { RedisQueueStore } from './redis-queue-store';

describeQueueStoreContract('memory', async () => new MemoryQueueStore());

// Every test gets its own hash tag on the shared redis-server, so tests never see each other's keys.
describeQueueStoreContract('redis', async () => new RedisQueueStore({ url: testEngines().redisUrl, keyPrefix: `test-${randomUUID()}` }));

import { randomUUID } from 'node:crypto';
import { testEngines } from '@bpc/testing';
import { describeExportSlotsContract } from './export-slots.contract-spec';
import type { ExportSlots } from './export-slots.port';
import { RedisExportSlots } from './redis-export-slots';

// Every store gets its own hash tag on the shared redis-server; `shareWith` reuses one (a second replica).
const prefixes = new WeakMap<ExportSlots, string>();
describeExportSlotsContract('redis', async (shareWith) => {
  const keyPrefix = (shareWith && prefixes.get(shareWith)) ?? `test-${randomUUID()}`;
  const slots = new RedisExportSlots({ url: testEngines().redisUrl, keyPrefix });
  prefixes.set(slots, keyPrefix);
  return slots;
});

describe('RedisExportSlots', () => {
  it('fails fast with a reason when Redis cannot be reached', async () => {
    const slots = new RedisExportSlots({ url: 'redis://127.0.0.1:1', keyPrefix: 'x' });
    try {
      await expect(slots.claim('acme', 'a', 'q', 1000)).rejects.toThrow(/redis unreachable at redis:\/\/127.0.0.1:1/);
    } finally {
      await slots.close();
    }
  });
});

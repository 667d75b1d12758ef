import { MemoryRateLimitStore } from './memory-rate-limit-store';
import { describeRateLimitStoreContract } from './rate-limit-store.contract-spec';

describeRateLimitStoreContract('memory', async () => new MemoryRateLimitStore());

import { TestClock } from '@bpc/testing';
import { describeWarmUpTurnsContract } from './warm-up-turns.contract-spec';
import { MemoryWarmUpTurns } from './memory-warm-up-turns';

const clock = new TestClock();
describeWarmUpTurnsContract('memory', async () => new MemoryWarmUpTurns(clock), { shared: false, expire: async (ms) => clock.advance(ms) });

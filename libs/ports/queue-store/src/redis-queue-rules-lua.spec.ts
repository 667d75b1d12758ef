import { PRIORITIES } from '@bpc/domain';
import { queueRulesLua } from './redis-queue-rules-lua';
import { QUEUE_SCRIPTS } from './redis-queue-scripts';

describe('the Redis queue scripts and the domain rule table', () => {
  it('take the drain order from the table', () => {
    expect(queueRulesLua()).toContain(`local PRIORITIES = { ${PRIORITIES.map((p) => `'${p}'`).join(', ')} }`);
  });

  it('spell no priority and compare no time by hand outside the generated rules', () => {
    for (const script of Object.values(QUEUE_SCRIPTS)) {
      const handWritten = script.replace(queueRulesLua(), '');
      for (const priority of PRIORITIES) expect(handWritten).not.toContain(`'${priority}'`);
      expect(handWritten).not.toMatch(/'-inf', (now|ARGV\[\d+\])\b/);
    }
  });
});

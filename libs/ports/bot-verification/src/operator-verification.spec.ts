import { botCatalog } from '@bpc/bots';
import { REVERSE_DNS_DOMAINS } from './operator-verification';
import { RANGE_SOURCES } from './range-files';

describe('the operators verification knows', () => {
  const classifierOperators = new Set(botCatalog().bots.map((bot) => bot.operator));

  it('are named as the bot classifier names them, so a claim finds its method', () => {
    expect([...Object.keys(REVERSE_DNS_DOMAINS), ...RANGE_SOURCES.map((source) => source.operator)].filter((operator) => !classifierOperators.has(operator))).toEqual([]);
  });

  it('have lowercase domains without a leading or trailing dot', () => {
    for (const domains of Object.values(REVERSE_DNS_DOMAINS)) for (const domain of domains) expect(domain).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
  });
});

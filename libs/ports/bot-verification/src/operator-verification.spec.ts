import { botCatalog } from '@bpc/bots';
import { REVERSE_DNS_DOMAINS, VERIFIABLE_BOTS } from './operator-verification';
import { RANGE_SOURCES } from './range-sources';

describe('the operators verification knows', () => {
  const classifierOperators = new Set(botCatalog().bots.map((bot) => bot.operator));

  it('are named as the bot classifier names them, so a claim finds its method', () => {
    expect([...Object.keys(REVERSE_DNS_DOMAINS), ...RANGE_SOURCES.map((source) => source.operator)].filter((operator) => !classifierOperators.has(operator))).toEqual([]);
  });

  it('have lowercase domains without a leading or trailing dot', () => {
    for (const domains of Object.values(REVERSE_DNS_DOMAINS)) for (const domain of domains) expect(domain).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
  });

  it('cover bots the classifier names, of the operator it names, and every operator with a method', () => {
    const operatorOf = new Map(botCatalog().bots.map((bot) => [bot.name, bot.operator]));
    const misnamed = Object.entries(VERIFIABLE_BOTS).flatMap(([operator, names]) => names.filter((name) => operatorOf.get(name) !== operator).map((name) => `${operator}: ${name} (${operatorOf.get(name) ?? 'not classified'})`));
    expect(misnamed).toEqual([]);
    expect(Object.keys(VERIFIABLE_BOTS).sort()).toEqual([...new Set([...Object.keys(REVERSE_DNS_DOMAINS), ...RANGE_SOURCES.map((source) => source.operator)])].sort());
  });
});

import { isPriority, priorityRank } from './priority';

describe('priority', () => {
  it('drains high before normal before autorecache', () => {
    expect(priorityRank('high')).toBeLessThan(priorityRank('normal'));
    expect(priorityRank('normal')).toBeLessThan(priorityRank('autorecache'));
  });

  it('accepts only the exact lower-case names', () => {
    expect(isPriority('high')).toBe(true);
    expect(isPriority('HIGH')).toBe(false);
    expect(isPriority('urgent')).toBe(false);
  });
});

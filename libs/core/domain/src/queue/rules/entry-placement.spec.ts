import { distinctItems, distinctPriorities, mergeEntry, pausedAt } from './entry-placement';

describe('entry placement rules', () => {
  it('keeps one item per URL + dimension, a later explicit mode winning', () => {
    const distinct = distinctItems([
      { url: 'u', dimensionId: 1, mode: 'bypass' },
      { url: 'u', dimensionId: 2 },
      { url: 'u', dimensionId: 1 },
      { url: 'u', dimensionId: 2, mode: 'render' },
    ]);
    expect([...distinct.values()]).toEqual([
      { url: 'u', dimensionId: 1, mode: 'bypass' },
      { url: 'u', dimensionId: 2, mode: 'render' },
    ]);
  });

  it('lists each priority once, in drain order', () => {
    expect(distinctPriorities(['autorecache', 'high', 'high'])).toEqual(['high', 'autorecache']);
    expect(distinctPriorities([])).toEqual([]);
  });

  it('merges to the higher priority, the earlier due time and the newer explicit mode', () => {
    expect(mergeEntry({ priority: 'normal', dueAt: 10, mode: 'bypass' }, { priority: 'high', dueAt: 50 })).toEqual({ priority: 'high', dueAt: 10, mode: 'bypass' });
    expect(mergeEntry({ priority: 'high', dueAt: 50 }, { priority: 'autorecache', dueAt: 10, mode: 'render' })).toEqual({ priority: 'high', dueAt: 10, mode: 'render' });
  });

  it('ends a pause at its deadline', () => {
    expect(pausedAt(100, 99)).toBe(true);
    expect(pausedAt(100, 100)).toBe(false);
    expect(pausedAt(undefined, 0)).toBe(false);
  });
});

import { RecordedResults } from './recorded-results';

describe('RecordedResults', () => {
  it('keeps a result for its time to live', () => {
    const results = new RecordedResults(1_000, 10);
    results.record('a', { n: 1 }, 0);
    expect(results.get('a', 999)).toEqual({ n: 1 });
    expect(results.get('a', 1_000)).toBeUndefined();
    expect(results.values(1_000)).toEqual([]);
  });

  it('drops the oldest results beyond its bound', () => {
    const results = new RecordedResults(60_000, 2);
    results.record('a', 1, 0);
    results.record('b', 2, 1);
    results.record('c', 3, 2);
    expect(results.get('a', 3)).toBeUndefined();
    expect(results.values(3).map((r) => r.eventId)).toEqual(['b', 'c']);
  });

  it('restores results as they were, skipping expired ones', () => {
    const results = new RecordedResults(60_000, 10);
    results.restore({ eventId: 'old', value: 1, expiresAt: 5 }, 10);
    results.restore({ eventId: 'kept', value: 2, expiresAt: 50 }, 10);
    expect(results.get('old', 10)).toBeUndefined();
    expect(results.get('kept', 49)).toBe(2);
  });
});

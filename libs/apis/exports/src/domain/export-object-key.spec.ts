import { exportIdOfObjectKey, exportObjectKey } from './export-object-key';

describe('export object keys', () => {
  it('names an export file exports/<exportId>.csv and reads the id back', () => {
    expect(exportObjectKey(42)).toBe('exports/42.csv');
    expect(exportIdOfObjectKey(exportObjectKey(42))).toBe(42);
  });

  it.each(['exports/42.csv.part', 'exports/42.csv.part-0123abcd', 'exports/x.csv', 'exports/sub/42.csv', 'cache/42.csv', 'exports/1234567890123456.csv'])('reads no export id from %s', (key) => {
    expect(exportIdOfObjectKey(key)).toBeUndefined();
  });
});

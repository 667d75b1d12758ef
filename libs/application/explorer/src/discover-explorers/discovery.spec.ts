import { DEFAULT_LIMITS } from '../catalog/explorer-catalog';
import { discoveryDocument } from './discovery';

describe('discovery document', () => {
  it('serves the catalog with the spec fields and nothing internal', () => {
    const doc = discoveryDocument(DEFAULT_LIMITS);
    expect(doc.limits).toEqual({ perPageMax: 500, perPageDefault: 100, exportRowCap: 1_000_000 });
    const requests = doc.explorers[0].modes[0];
    expect(Object.keys(requests).sort()).toEqual(['columns', 'default', 'defaults', 'filters', 'key']);
    const cache = requests.filters.find((f) => f.field === 'cache_status')!;
    expect(cache.options).toEqual([{ value: 'hit', label: 'Hit' }, { value: 'miss', label: 'Miss' }, { value: 'stale', label: 'Stale' }, { value: 'bypass', label: 'Bypass' }]);
    expect(requests.filters.find((f) => f.field === 'url')).not.toHaveProperty('options');
    for (const explorer of doc.explorers) {
      expect(Object.keys(explorer).sort()).toEqual(['features', 'key', 'limits', 'modes', 'periods']);
      expect(explorer.limits).toEqual(doc.limits);
      for (const mode of explorer.modes) for (const c of mode.columns) expect(c.modes).toContain(mode.key);
    }
  });
});

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

  it("lists the bot fields' values as options in every events mode, in their lists' order, and the operator as text", () => {
    const events = discoveryDocument(DEFAULT_LIMITS).explorers.find((e) => e.key === 'events')!;
    expect(events.modes[0].columns.map((c) => c.key)).toEqual(expect.arrayContaining(['bot_category', 'bot_operator', 'verified', 'robots_allowed', 'format']));
    for (const mode of events.modes) {
      const filter = (field: string) => mode.filters.find((f) => f.field === field)!;
      expect(filter('bot_category')).toMatchObject({ type: 'enum', operators: ['eq', 'ne'] });
      expect(filter('bot_category').options!.map((o) => o.value)).toEqual(['search', 'ai_search', 'ai_assistant', 'ai_training', 'social', 'seo_tool', 'monitoring', 'other']);
      expect(filter('bot_category').options).toContainEqual({ value: 'ai_assistant', label: 'AI assistant' });
      expect(filter('verified').options).toEqual([{ value: 'yes', label: 'Yes' }, { value: 'no', label: 'No' }, { value: 'unknown', label: 'Unknown' }]);
      expect(filter('robots_allowed').options).toEqual(filter('verified').options);
      expect(filter('format').options).toEqual([{ value: 'html', label: 'HTML' }, { value: 'markdown', label: 'Markdown' }]);
      expect(filter('bot_operator')).toMatchObject({ type: 'string', operators: expect.arrayContaining(['contains', 'equals']) });
      expect(filter('bot_operator')).not.toHaveProperty('options');
    }
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { componentSchema, OpenApiDocument, withoutExamples, withoutProperties, withProperties } from './openapi-schemas';
import { toolList } from './connector-server';
import { CONNECTOR_TOOLS } from './connector-tools';

const PUBLISHED = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../deploy/openapi/public-api.json'), 'utf8')) as OpenApiDocument;

describe('component schemas as self-contained JSON Schemas', () => {
  const document: OpenApiDocument = {
    components: {
      schemas: {
        Filter: { type: 'object', properties: { field: { type: 'string', example: 'url' } }, required: ['field'] },
        Query: { type: 'object', properties: { filters: { type: 'array', items: { $ref: '#/components/schemas/Filter' } }, until: { type: 'string', nullable: true } } },
        Loop: { type: 'object', properties: { self: { $ref: '#/components/schemas/Loop' } } },
      },
    },
  };

  it('inlines references and turns example and nullable into their JSON Schema forms', () => {
    expect(componentSchema(document, 'Query')).toEqual({
      type: 'object',
      properties: {
        filters: { type: 'array', items: { type: 'object', properties: { field: { type: 'string', examples: ['url'] } }, required: ['field'] } },
        until: { type: ['string', 'null'] },
      },
    });
  });

  it('refuses an unknown or self-referencing component', () => {
    expect(() => componentSchema(document, 'Nope')).toThrow(/no component schema Nope/);
    expect(() => componentSchema(document, 'Loop')).toThrow(/refers to itself/);
  });

  it('adds path parameters first and merges required; removes properties', () => {
    const schema = withProperties(componentSchema(document, 'Filter'), { website: { type: 'string' } }, ['website'], { field: { description: 'd' } });
    expect(Object.keys(schema.properties as object)).toEqual(['website', 'field']);
    expect(schema.required).toEqual(['website', 'field']);
    expect((schema.properties as Record<string, object>).field).toEqual({ type: 'string', examples: ['url'], description: 'd' });
    expect(withoutProperties(schema, ['field'])).toMatchObject({ properties: { website: { type: 'string' } }, required: ['website'] });
  });

  it('drops examples at every depth but keeps a property named examples', () => {
    expect(withoutExamples({ type: 'object', examples: [{}], properties: { examples: { type: 'array', examples: [[1]] }, a: { type: 'string', examples: ['x'] } } })).toEqual({
      type: 'object',
      properties: { examples: { type: 'array' }, a: { type: 'string' } },
    });
  });

  it("builds every tool's schemas from the published public API document, with no reference left", () => {
    const tools = toolList(PUBLISHED);
    // Every tool, each file of tools merged in (not a count to bump per tool).
    expect(tools).toHaveLength(CONNECTOR_TOOLS.length);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(JSON.stringify(tool)).not.toContain('$ref');
      if (tool.outputSchema) expect(tool.outputSchema.type).toBe('object');
    }
  });

  it("tells a model the keys a query takes, from the explorer catalog, over the API's own constraints", () => {
    const query = toolList(PUBLISHED).find((t) => t.name === 'query_explorer')!.inputSchema as { properties: Record<string, Record<string, unknown>> };
    expect(query.properties.explorer.enum).toEqual(['events', 'search-pages', 'search-keywords', 'pages', 'page_changes']);
    expect(query.properties.mode.enum).toEqual(expect.arrayContaining(['requests', 'unique_pages', 'comparison', 'search_pages']));
    expect(query.properties.compCategory).toMatchObject({ enum: ['new', 'returning', 'lost'], description: expect.stringContaining('Default `new`') });
    // Every preset spelled out (the DTO says "`24h`, `7d` …"), and the range format with its inclusive end.
    expect(query.properties.period.description).toEqual(expect.stringContaining('`24h`, `7d`, `14d`, `28d`, `30d`, `90d`'));
    expect(query.properties.period.description).toEqual(expect.stringContaining('both days included'));
    expect(query.properties.filters).toMatchObject({ type: 'array', description: expect.stringContaining('`cache_status` (enum: hit/miss/stale/bypass; eq ne)') });
    expect(query.properties.perPage).toMatchObject({ minimum: 1, maximum: 500 });
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { componentSchema, OpenApiDocument, withoutExamples, withoutProperties, withProperties } from './openapi-schemas';
import { toolList } from './connector-server';

const PUBLISHED = JSON.parse(readFileSync(path.resolve(__dirname, '../../../deploy/openapi/public-api.json'), 'utf8')) as OpenApiDocument;

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
    expect(tools).toHaveLength(9);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(JSON.stringify(tool)).not.toContain('$ref');
      if (tool.outputSchema) expect(tool.outputSchema.type).toBe('object');
    }
  });
});

/** A JSON Schema (or OpenAPI schema object) as plain data. */
export type JsonSchema = { readonly [key: string]: unknown };

/** The part of the public API's OpenAPI document the connector reads: its component schemas, generated from the same DTOs the API validates with. */
export interface OpenApiDocument {
  readonly components?: { readonly schemas?: Readonly<Record<string, JsonSchema>> };
}

const REF = '#/components/schemas/';

/**
 * A component schema as a self-contained JSON Schema for an MCP client:
 * references inlined (tool schemas travel alone, without the document),
 * OpenAPI's `example` and `nullable` turned into their JSON Schema forms.
 */
export function componentSchema(document: OpenApiDocument, name: string): JsonSchema {
  const schemas = document.components?.schemas ?? {};
  const resolve = (node: unknown, seen: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => resolve(item, seen));
    if (node === null || typeof node !== 'object') return node;
    const object = node as JsonSchema;
    if (typeof object.$ref === 'string' && object.$ref.startsWith(REF)) {
      const target = object.$ref.slice(REF.length);
      if (seen.includes(target)) throw new Error(`OpenAPI schema ${name}: ${target} refers to itself`);
      return resolve(lookup(schemas, target), [...seen, target]);
    }
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(object)) {
      if (key === 'example') out.examples = [value];
      else if (key === 'nullable') continue;
      else out[key] = key === 'properties' ? mapValues(value as JsonSchema, (v) => resolve(v, seen)) : resolve(value, seen);
    }
    if (object.nullable === true && typeof object.type === 'string') out.type = [object.type, 'null'];
    return out;
  };
  return resolve(lookup(schemas, name), [name]) as JsonSchema;
}

function lookup(schemas: Readonly<Record<string, JsonSchema>>, name: string): JsonSchema {
  const schema = schemas[name];
  if (!schema) throw new Error(`the public API's OpenAPI document has no component schema ${name}`);
  return schema;
}

function mapValues(object: JsonSchema, f: (value: unknown) => unknown): JsonSchema {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, f(value)]));
}

/** The object schema `base` with `extra` properties first (path parameters such as `website`) and `required` merged. */
export function withProperties(base: JsonSchema, extra: Record<string, JsonSchema>, required: readonly string[] = [], overrides: Record<string, JsonSchema> = {}): JsonSchema {
  const properties = { ...extra, ...((base.properties as JsonSchema | undefined) ?? {}) } as Record<string, JsonSchema>;
  for (const [key, override] of Object.entries(overrides)) properties[key] = { ...(properties[key] ?? {}), ...override };
  const baseRequired = Array.isArray(base.required) ? (base.required as string[]) : [];
  const allRequired = [...new Set([...required, ...baseRequired])];
  return { ...base, type: 'object', properties, ...(allRequired.length ? { required: allRequired } : {}) };
}

/** `schema` without some properties (and without them in `required`). */
export function withoutProperties(schema: JsonSchema, names: readonly string[]): JsonSchema {
  const properties = Object.fromEntries(Object.entries((schema.properties as JsonSchema | undefined) ?? {}).filter(([key]) => !names.includes(key)));
  const required = Array.isArray(schema.required) ? (schema.required as string[]).filter((key) => !names.includes(key)) : undefined;
  return { ...schema, properties, ...(required ? { required } : {}) };
}

/** `schema` without its `examples`, at every depth (property names are kept, even one called `examples`). */
export function withoutExamples(schema: JsonSchema): JsonSchema {
  const strip = (node: unknown, isProperties: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => strip(item, false));
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node as JsonSchema)
        .filter(([key]) => isProperties || key !== 'examples')
        .map(([key, value]) => [key, strip(value, !isProperties && key === 'properties')]),
    );
  };
  return strip(schema, false) as JsonSchema;
}

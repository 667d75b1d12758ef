import { EVENT_CATALOG } from './event-catalog';
import type { EventDefinition } from './event-definition';

/** Where the published schemas live, relative to the repository root (`npm run event-schemas` writes them). */
export const PUBLISHED_EVENT_SCHEMAS_DIR = 'deploy/event-schemas';

/** The file of the envelope's schema, which every event's schema repeats with its own `type`, `version` and payload. */
export const ENVELOPE_SCHEMA_FILE = 'envelope.json';

/** Draft-07: what ajv's default class and most validators read without a dialect option. */
const DIALECT = 'http://json-schema.org/draft-07/schema#';

/** The schema file of one event type at one version: `<Type>.v<N>.json`. */
export function eventSchemaFile(type: string, version: number): string {
  return `${type}.v${version}.json`;
}

/** The envelope's fields as every event has them; `payload` and the constants are each event's own. */
function envelopeProperties(type: object, version: object, key: object, payload: object): Record<string, object> {
  return {
    type,
    version,
    id: { type: 'string', minLength: 1, description: 'unique id of the event; consumers deduplicate on it (delivery is at least once)' },
    occurredAt: { type: 'string', format: 'date-time', description: 'when it happened, ISO 8601 UTC with milliseconds' },
    key,
    payload,
  };
}

const REQUIRED = ['type', 'version', 'id', 'occurredAt', 'key', 'payload'];

/** The envelope alone: what a reader can rely on for any event, known or not. */
function envelopeSchema(): object {
  return {
    $schema: DIALECT,
    $id: ENVELOPE_SCHEMA_FILE,
    title: 'Event envelope',
    description: 'The envelope every event travels in, the same in Kafka message values, in the standalone log files and in ClickHouse. Validate the whole event with the schema of its type and version (<type>.v<version>.json).',
    type: 'object',
    additionalProperties: false,
    required: REQUIRED,
    properties: envelopeProperties(
      { type: 'string', minLength: 1, description: 'event type, also the Kafka header `type`' },
      { type: 'integer', minimum: 1, description: 'version of the type\'s payload schema' },
      { type: 'string', description: 'partition key: events with the same key keep their order' },
      { type: 'object', description: 'the event\'s facts; see the schema of its type and version' },
    ),
  };
}

/** One event at one version, its envelope and payload in one self-contained schema. */
function eventSchema(definition: EventDefinition): object {
  return {
    $schema: DIALECT,
    $id: eventSchemaFile(definition.type, definition.version),
    title: `${definition.type} v${definition.version}`,
    description: `${definition.description} Topic ${definition.topic}, keyed by ${definition.key}.`,
    type: 'object',
    additionalProperties: false,
    required: REQUIRED,
    properties: envelopeProperties(
      { const: definition.type },
      { const: definition.version },
      { type: 'string', description: `partition key: ${definition.key}` },
      definition.payload,
    ),
  };
}

/**
 * The published catalog: the envelope and every event type and version of
 * `catalog`, by file name, as committed (2-space JSON, trailing newline).
 */
export function publishedEventSchemas(catalog: Readonly<Record<string, EventDefinition>> = EVENT_CATALOG): Map<string, string> {
  const files = new Map<string, string>([[ENVELOPE_SCHEMA_FILE, asFile(envelopeSchema())]]);
  for (const definition of Object.values(catalog)) files.set(eventSchemaFile(definition.type, definition.version), asFile(eventSchema(definition)));
  return files;
}

function asFile(schema: object): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}

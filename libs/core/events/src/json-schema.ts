import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

export type JsonType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

/** The subset of JSON Schema (draft-07) used to document event payloads for downstream consumers. */
export interface JsonSchema {
  /** A list for a field that may be null: `['integer', 'null']`. */
  readonly type?: JsonType | readonly JsonType[];
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly items?: JsonSchema;
  readonly enum?: readonly (string | number | null)[];
  readonly format?: string;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly minItems?: number;
  readonly minLength?: number;
  readonly description?: string;
}

/** `T` with every `readonly` removed, at every depth. */
type Writable<T> = T extends readonly (infer U)[] ? Writable<U>[] : T extends object ? { -readonly [K in keyof T]: Writable<T[K]> } : T;

/** What a payload that `Schema` accepts looks like in TypeScript (read by json-schema-to-ts). */
type Accepted<Schema> = Schema extends JSONSchema ? Writable<FromSchema<Schema>> : never;

/**
 * True when `Schema` accepts exactly the values of `Payload`: every value
 * the type allows (a null, an absent optional field) passes the schema, and
 * whatever passes is one, with the same fields.
 */
export type SchemaDescribes<Schema, Payload> = [Writable<Payload>] extends [Accepted<Schema>]
  ? [Accepted<Schema>] extends [Writable<Payload>]
    ? [keyof Writable<Payload>] extends [keyof Accepted<Schema>]
      ? [keyof Accepted<Schema>] extends [keyof Writable<Payload>]
        ? true
        : false
      : false
    : false
  : false;

/**
 * The JSON Schema of the payload type `Payload`, checked against it when
 * compiled: a field the code may leave null or absent that the schema
 * requires as a value (or the other way round) fails the build, so the
 * published schemas cannot drift from what producers write.
 *
 *     export const fooSchema = payloadSchema<FooPayload>()({ type: 'object', ... });
 */
export function payloadSchema<Payload>() {
  return <const Schema extends JsonSchema>(schema: Schema & (SchemaDescribes<Schema, Payload> extends true ? unknown : { readonly 'the schema does not describe the payload type': Accepted<Schema> })): Schema => schema;
}

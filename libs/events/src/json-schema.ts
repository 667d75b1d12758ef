/** The subset of JSON Schema used to document event payloads for downstream consumers. */
export interface JsonSchema {
  readonly type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly items?: JsonSchema;
  readonly enum?: readonly (string | number)[];
  readonly format?: string;
  readonly minimum?: number;
  readonly minItems?: number;
  readonly description?: string;
}

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { eventSchemaFile, PUBLISHED_EVENT_SCHEMAS_DIR } from '@bpc/events';

const root = path.resolve(__dirname, '..', '..');

/** The committed schema files by name, as text. */
export function committedEventSchemas(): Map<string, string> {
  const dir = path.join(root, PUBLISHED_EVENT_SCHEMAS_DIR);
  return new Map(
    readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => [name, readFileSync(path.join(dir, name), 'utf8')]),
  );
}

/**
 * Validates events as a downstream consumer would: ajv (strict mode, with
 * ajv-formats) compiling the committed files under `deploy/event-schemas`,
 * each event against the file of its type and version.
 */
export class PublishedEventValidator {
  private readonly ajv = addFormats(new Ajv({ strict: true, allErrors: true }));

  constructor(schemas: ReadonlyMap<string, string> = committedEventSchemas()) {
    for (const text of schemas.values()) this.ajv.addSchema(JSON.parse(text));
  }

  /** Why `event` is not valid under the published schema of its type and version; undefined when it is valid. */
  problems(event: unknown): string | undefined {
    const { type, version } = (event ?? {}) as { type?: unknown; version?: unknown };
    const file = eventSchemaFile(String(type), Number(version));
    const validate = this.ajv.getSchema(file);
    if (!validate) return `no published schema for ${String(type)} v${String(version)} (${file})`;
    return validate(event) ? undefined : (validate.errors ?? []).map(describe).join('; ');
  }
}

function describe(error: ErrorObject): string {
  return `${error.instancePath || '/'} ${error.message ?? error.keyword}${Object.keys(error.params).length ? ` ${JSON.stringify(error.params)}` : ''}`;
}

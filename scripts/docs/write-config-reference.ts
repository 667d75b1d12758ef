import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderConfigReference } from './config-reference';

/** `npm run docs:config`: regenerates docs/configuration.md from the configuration schema. */
export const CONFIG_SCHEMA_FILE = 'libs/core/config/src/config.schema.ts';
export const CONFIG_REFERENCE_FILE = 'docs/configuration.md';

const root = path.resolve(__dirname, '..', '..');

export function configReference(): string {
  return renderConfigReference(readFileSync(path.join(root, CONFIG_SCHEMA_FILE), 'utf8'), CONFIG_SCHEMA_FILE);
}

if (require.main === module) {
  writeFileSync(path.join(root, CONFIG_REFERENCE_FILE), configReference());
  console.log(`wrote ${CONFIG_REFERENCE_FILE}`);
}

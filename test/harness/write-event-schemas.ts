import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PUBLISHED_EVENT_SCHEMAS_DIR, publishedEventSchemas } from '@bpc/events';

/** `npm run event-schemas`: rewrites the published event schemas from the catalog in the code (runs from dist/test/harness). */
function main(): void {
  const dir = path.resolve(__dirname, '..', '..', '..', PUBLISHED_EVENT_SCHEMAS_DIR);
  const files = publishedEventSchemas();
  mkdirSync(dir, { recursive: true });
  // A type or version the catalog no longer has loses its file.
  for (const name of readdirSync(dir)) if (name.endsWith('.json') && !files.has(name)) rmSync(path.join(dir, name));
  for (const [name, text] of files) writeFileSync(path.join(dir, name), text);
  console.log(`wrote ${files.size} schemas to ${PUBLISHED_EVENT_SCHEMAS_DIR}`);
}

main();

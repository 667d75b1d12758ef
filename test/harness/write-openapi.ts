import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateOpenApiDocuments, OPENAPI_FILES, OpenApiApp } from './openapi-documents';

/** `npm run openapi`: regenerates the committed OpenAPI documents from the code (runs from dist/test/harness). */
async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..', '..', '..');
  const { committed } = await generateOpenApiDocuments();
  for (const app of Object.keys(OPENAPI_FILES) as OpenApiApp[]) {
    const file = path.join(root, OPENAPI_FILES[app]);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, committed[app]);
    console.log(`wrote ${OPENAPI_FILES[app]}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

import path from 'node:path';
import { createLogger, OPENAPI_PATH, startApps } from '@bpc/platform';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { removeTestDataDir } from './event-audit';
import { testConfig } from './test-config';

/** The committed OpenAPI documents, relative to the repository root (`npm run openapi` refreshes them). */
export const OPENAPI_FILES = {
  'public-api': path.join('deploy', 'openapi', 'public-api.json'),
  daemon: path.join('deploy', 'openapi', 'daemon-api.json'),
} as const;

export type OpenApiApp = keyof typeof OPENAPI_FILES;

/** Starts every app in one process and fetches the document each serves, as committed (2-space JSON, trailing newline). */
export async function generateOpenApiDocuments(): Promise<Record<OpenApiApp, string>> {
  const running = await startApps(standaloneApps, testConfig('standalone', { scheduler: { enabled: false } }), createLogger('silent', 'openapi'));
  try {
    const fetchDocument = async (app: OpenApiApp) => {
      const response = await fetch(`${running.urls[app]}${OPENAPI_PATH}`);
      if (response.status !== 200) throw new Error(`${app} ${OPENAPI_PATH}: ${response.status}`);
      return `${JSON.stringify(await response.json(), null, 2)}\n`;
    };
    return { 'public-api': await fetchDocument('public-api'), daemon: await fetchDocument('daemon') };
  } finally {
    await running.close();
    removeTestDataDir(running.runtime.config.data_dir);
  }
}

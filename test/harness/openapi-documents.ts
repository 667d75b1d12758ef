import path from 'node:path';
import type { OpenAPIObject } from '@nestjs/swagger';
import { ListenConfig } from '@bpc/config';
import { DAEMON_OPENAPI } from '@bpc/daemon';
import { createLogger, OPENAPI_PATH, openApiDocument, OpenApiInfo, openApiServerUrl } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { PUBLIC_OPENAPI } from '@bpc/public-api';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { removeTestDataDir } from './event-audit';
import { testConfig } from './test-config';

/** The committed OpenAPI documents, relative to the repository root (`npm run openapi` refreshes them). */
export const OPENAPI_FILES = {
  'public-api': path.join('deploy', 'openapi', 'public-api.json'),
  daemon: path.join('deploy', 'openapi', 'daemon-api.json'),
} as const;

export type OpenApiApp = keyof typeof OPENAPI_FILES;

const INFO: Record<OpenApiApp, OpenApiInfo> = { 'public-api': PUBLIC_OPENAPI, daemon: DAEMON_OPENAPI };
const DEFAULT_PORT: Record<OpenApiApp, (listen: ListenConfig) => number> = { 'public-api': (l) => l.public_api, daemon: (l) => l.daemon };

export interface OpenApiDocuments {
  /** As committed (2-space JSON, trailing newline): the server is where the default configuration listens. */
  readonly committed: Record<OpenApiApp, string>;
  /** As the running apps serve them at `OPENAPI_PATH`, with the server their configuration gives. */
  readonly served: Record<OpenApiApp, OpenAPIObject>;
}

/** Starts every app in one process and takes each API's document (`npm run openapi`). */
export async function generateOpenApiDocuments(): Promise<OpenApiDocuments> {
  const running = await startApps(standaloneApps, testConfig('standalone', { scheduler: { enabled: false } }), createLogger('silent', 'openapi'));
  try {
    return await openApiDocumentsOf(running);
  } finally {
    await running.close();
    removeTestDataDir(running.runtime.config.data_dir);
  }
}

/** Each API's document, from apps started with `startApps` (the public API and the daemon among them). */
export async function openApiDocumentsOf(running: RunningApps): Promise<OpenApiDocuments> {
  const defaults = { ...running.runtime.config, listen: new ListenConfig(), exports: { ...running.runtime.config.exports, public_base_url: undefined } };
  const fetchDocument = async (app: OpenApiApp): Promise<OpenAPIObject> => {
    const response = await fetch(`${running.urls[app]}${OPENAPI_PATH}`);
    if (response.status !== 200) throw new Error(`${app} ${OPENAPI_PATH}: ${response.status}`);
    return (await response.json()) as OpenAPIObject;
  };
  const committed = (app: OpenApiApp) => {
    const document = openApiDocument(running.apps[app]!, INFO[app], openApiServerUrl(INFO[app], defaults, DEFAULT_PORT[app](defaults.listen)));
    return `${JSON.stringify(document, null, 2)}\n`;
  };
  return {
    committed: { 'public-api': committed('public-api'), daemon: committed('daemon') },
    served: { 'public-api': await fetchDocument('public-api'), daemon: await fetchDocument('daemon') },
  };
}

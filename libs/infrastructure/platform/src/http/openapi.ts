import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { AppConfig } from '@bpc/config';

/** Where the public API and the daemon serve their API reference page (Swagger UI); open, like health and metrics. */
export const DOCS_PATH = '/docs';

/** Where they serve their OpenAPI document. */
export const OPENAPI_PATH = `${DOCS_PATH}/openapi.json`;

/** A named security scheme: a bearer token, or an API key in a header or in a cookie. */
export type OpenApiSecurityScheme =
  | { readonly name: string; readonly scheme: 'bearer' }
  | { readonly name: string; readonly header: string }
  | { readonly name: string; readonly cookie: string; readonly description?: string };

export interface OpenApiInfo {
  readonly title: string;
  readonly description: string;
  /** Named security scheme(s) the document declares; controllers refer to them by name. */
  readonly security: OpenApiSecurityScheme | readonly OpenApiSecurityScheme[];
  /** Where clients reach the API, when the configuration says so; otherwise the address it listens on. */
  readonly configuredUrl?: (config: AppConfig) => string | undefined;
}

/**
 * The base URL an app listens on, as a client on this machine reaches it: a
 * wildcard address (`0.0.0.0`, `::`) reads as loopback.
 */
export function listenUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/** The document's one server: built from the configuration and the listening port, never from a request's `Host`. */
export function openApiServerUrl(info: OpenApiInfo, config: AppConfig, port: number): string {
  return info.configuredUrl?.(config) ?? listenUrl(config.listen.host, port);
}

/** The document of one app, generated from its controllers and DTOs; deterministic for a given server URL (no date). */
export function openApiDocument(app: NestFastifyApplication, info: OpenApiInfo, serverUrl: string): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle(info.title)
    .setDescription(info.description)
    .setVersion('1')
    .addServer(serverUrl);
  for (const scheme of ([] as OpenApiSecurityScheme[]).concat(info.security)) {
    if ('scheme' in scheme) builder.addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API token' }, scheme.name);
    else if ('cookie' in scheme) builder.addCookieAuth(scheme.cookie, { type: 'apiKey', in: 'cookie', name: scheme.cookie, description: scheme.description }, scheme.name);
    else builder.addApiKey({ type: 'apiKey', in: 'header', name: scheme.header }, scheme.name);
  }
  return SwaggerModule.createDocument(app, builder.build(), { operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}` });
}

/**
 * Serves the app's document at `OPENAPI_PATH` and a human-readable reference
 * of it at `DOCS_PATH`: Swagger UI, whose assets come from the installed
 * swagger-ui-dist (served locally: the page works offline, no CDN) and which
 * calls no validator service. The document is built on the first request,
 * when the listening port is known. Call from the app spec's `configure`,
 * before listening.
 */
export function serveOpenApi(app: NestFastifyApplication, info: OpenApiInfo, config: AppConfig): void {
  const port = () => ((app.getHttpServer() as Server).address() as AddressInfo).port;
  SwaggerModule.setup(DOCS_PATH, app, () => openApiDocument(app, info, openApiServerUrl(info, config, port())), {
    jsonDocumentUrl: OPENAPI_PATH,
    raw: ['json'],
    customSiteTitle: info.title,
    swaggerOptions: { validatorUrl: null, tryItOutEnabled: false, displayRequestDuration: true },
  });
}

import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

/** Where every app serves its OpenAPI document (the daemon's auth hook leaves `/docs` open). */
export const OPENAPI_PATH = '/docs/openapi.json';

export interface OpenApiInfo {
  readonly title: string;
  readonly description: string;
  /** Named security scheme the document declares; controllers refer to it by name. */
  readonly security: { readonly name: string; readonly scheme: 'bearer' } | { readonly name: string; readonly header: string };
}

/** The document of one app, generated from its controllers and DTOs; deterministic (no server URL, no date). */
export function openApiDocument(app: NestFastifyApplication, info: OpenApiInfo): OpenAPIObject {
  const builder = new DocumentBuilder().setTitle(info.title).setDescription(info.description).setVersion('1');
  if ('scheme' in info.security) builder.addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API token' }, info.security.name);
  else builder.addApiKey({ type: 'apiKey', in: 'header', name: info.security.header }, info.security.name);
  return SwaggerModule.createDocument(app, builder.build(), { operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}` });
}

/** Serves the app's document at `OPENAPI_PATH`; call from the app spec's `configure`, before listening. */
export function serveOpenApi(app: NestFastifyApplication, info: OpenApiInfo): void {
  const document = openApiDocument(app, info);
  app.getHttpAdapter().getInstance().get(OPENAPI_PATH, async (_request, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(document));
}

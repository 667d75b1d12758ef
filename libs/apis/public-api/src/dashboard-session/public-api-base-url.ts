import type { AddressInfo } from 'node:net';
import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { AppConfig } from '@bpc/config';
import { APP_CONFIG, openApiServerUrl } from '@bpc/platform';
import { PUBLIC_OPENAPI } from '../http/public-api-docs';

/**
 * Where people reach the public API (the dashboard at its root, sign-in
 * links, export download links): the one place it is derived, from
 * configuration only, as the OpenAPI document's server is
 * (`exports.public_base_url`, else the address this app listens on, with the
 * port it was bound to). Never from a request header: a forged `Host` must
 * not make a link point elsewhere.
 */
@Injectable()
export class PublicApiBaseUrl {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  url(): string {
    // The bound port: the configured one, or the one the system chose for 0.
    const { port } = this.adapterHost.httpAdapter.getHttpServer().address() as AddressInfo;
    return openApiServerUrl(PUBLIC_OPENAPI, this.config, port);
  }

  /** Cookies carry `Secure` when people reach the API over HTTPS. */
  secure(): boolean {
    return this.url().startsWith('https://');
  }
}

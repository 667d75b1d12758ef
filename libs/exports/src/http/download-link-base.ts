import type { AddressInfo } from 'node:net';
import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { AppConfig } from '@bpc/config';
import { APP_CONFIG, listenUrl } from '@bpc/platform';

/**
 * The base of every `downloadUrl`, from configuration only:
 * `exports.public_base_url`, else the address the public API listens on.
 * Never from a request header: a forged `Host` would have us sign links that
 * send the caller's users to another site. The same base as the OpenAPI
 * document's server (`openApiServerUrl`).
 */
@Injectable()
export class DownloadLinkBase {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  url(): string {
    if (this.config.exports.public_base_url) return this.config.exports.public_base_url;
    // The bound port: the configured one, or the one the system chose for 0.
    const { port } = this.adapterHost.httpAdapter.getHttpServer().address() as AddressInfo;
    return listenUrl(this.config.listen.host, port);
  }
}

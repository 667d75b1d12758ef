import type { AddressInfo } from 'node:net';
import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { AppConfig } from '@bpc/config';
import { APP_CONFIG, listenUrl } from '@bpc/platform';

/**
 * Where people reach the public API (and the dashboard at its root), from
 * configuration only: `exports.public_base_url`, else the address this app
 * listens on. Never from a request header, so a forged `Host` cannot make
 * a sign-in link point elsewhere.
 */
@Injectable()
export class PublicApiBaseUrl {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  url(): string {
    if (this.config.exports.public_base_url) return this.config.exports.public_base_url;
    const { port } = this.adapterHost.httpAdapter.getHttpServer().address() as AddressInfo;
    return listenUrl(this.config.listen.host, port);
  }

  /** Cookies carry `Secure` when people reach the API over HTTPS. */
  secure(): boolean {
    return this.config.exports.public_base_url?.startsWith('https://') ?? false;
  }
}

import { isIPv6, type AddressInfo } from 'node:net';
import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { AppConfig } from '@bpc/config';
import { APP_CONFIG } from '@bpc/platform';

/**
 * The base of every `downloadUrl`, from configuration only:
 * `exports.public_base_url`, else the address the public API listens on.
 * Never from a request header: a forged `Host` would have us sign links that
 * send the caller's users to another site.
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

/** `http://<host>:<port>` of a listen address; an unspecified host (`0.0.0.0`, `::`) as loopback, the way Nest's `getUrl` reads it. */
export function listenUrl(host: string, port: number): string {
  if (host === '0.0.0.0') return `http://127.0.0.1:${port}`;
  if (host === '::') return `http://[::1]:${port}`;
  return `http://${isIPv6(host) ? `[${host}]` : host}:${port}`;
}

import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@bpc/config';
import type { Clock } from '@bpc/domain';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import { AuthorizedRequest, PublicApiBaseUrl } from '@bpc/public-api';
import type { ExportState } from '../domain/export-record';
import { LINK_SIGNING_KEY } from '../http/link-signing';
import { ExportCaller, ExportRunner } from '../start-export/export-runner';
import { exportRecordView, ExportRecordView } from './export-record.view';

/** Who starts an export: the website access of the request, and whether it came from the dashboard or the API. */
export function exportCaller(access: NonNullable<AuthorizedRequest['access']>): ExportCaller {
  return { userId: access.userId, websiteId: access.website.id, accountId: access.website.accountId, startedFrom: access.via ?? 'api' };
}

/** Export records as the API answers them, a completed one with a download link signed now (never past the file's retention). */
@Injectable()
export class ExportRecordViews {
  constructor(
    @Inject(LINK_SIGNING_KEY) private readonly key: Buffer,
    private readonly runner: ExportRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly linkBase: PublicApiBaseUrl,
  ) {}

  of(record: ExportState): ExportRecordView {
    return exportRecordView(record, {
      key: this.key,
      baseUrl: this.linkBase.url(),
      nowMs: this.clock.now(),
      ttlSeconds: this.config.exports.link_ttl_seconds,
      retainedUntilMs: this.runner.retainedUntil(record),
    });
  }
}

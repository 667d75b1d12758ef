import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import type { AppConfig } from '@bpc/config';
import { AppError, type Clock } from '@bpc/domain';
import { APP_CONFIG, BodyPipe, CLOCK } from '@bpc/platform';
import { AuthorizedRequest, RequiresWebsite } from '@bpc/public-api';
import type { ExportState } from '../domain/export-record';
import { DownloadLinkBase } from '../http/download-link-base';
import { LINK_SIGNING_KEY } from '../http/link-signing';
import { ExportRunner } from '../start-export/export-runner';
import { StartExportDto } from '../start-export/start-export.dto';
import { ExportIndex } from '../state/export-index';
import { exportRecordView, ExportRecordView } from './export-record.view';

/** Export and export status: any role on the website, and the platform module (as every Data Explorer endpoint). */
@Controller('api/websites/:website/data-explorer')
@RequiresWebsite({ role: 'readonly', platformModule: true })
export class ExportsController {
  constructor(
    @Inject(LINK_SIGNING_KEY) private readonly key: Buffer,
    private readonly runner: ExportRunner,
    private readonly index: ExportIndex,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly linkBase: DownloadLinkBase,
  ) {}

  @Post(':explorerKey/export')
  @HttpCode(200)
  async export(
    @Req() request: AuthorizedRequest,
    @Param('explorerKey') explorerKey: string,
    @Body(new BodyPipe(StartExportDto, { forbidUnknownKeys: true })) body: StartExportDto,
  ): Promise<ExportRecordView> {
    const access = request.access!;
    const record = await this.runner.start({ userId: access.userId, websiteId: access.website.id, accountId: access.website.accountId }, explorerKey, body);
    return this.view(record);
  }

  @Get('export/:exportId/status')
  async status(@Req() request: AuthorizedRequest, @Param('exportId') exportId: string): Promise<ExportRecordView> {
    await this.runner.ready();
    const access = request.access!;
    const record = /^\d{1,15}$/.test(exportId) ? this.index.get(Number(exportId)) : undefined;
    if (!record || record.userId !== access.userId || record.websiteId !== access.website.id) {
      throw new AppError('EXPORT_NOT_FOUND', `no export ${exportId} of yours on website ${access.website.id}`);
    }
    return this.view(record);
  }

  private view(record: ExportState): ExportRecordView {
    return exportRecordView(record, {
      key: this.key,
      baseUrl: this.linkBase.url(),
      nowMs: this.clock.now(),
      ttlSeconds: this.config.exports.link_ttl_seconds,
      retainedUntilMs: this.runner.retainedUntil(record),
    });
  }
}

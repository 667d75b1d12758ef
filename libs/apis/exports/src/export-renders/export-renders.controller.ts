import { Body, Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { AppConfig } from '@bpc/config';
import { rendersCatalogOf } from '@bpc/explorer';
import { APP_CONFIG, BodyPipe } from '@bpc/platform';
import { ApiExplorerBusy, ApiPublicEndpoint, ApiPublicError, ApiRefusesBadBodies, AuthorizedRequest, ExportSlotBusyErrorDto, RequiresWebsite } from '@bpc/public-api';
import { EXPORT_RECORD_MODELS, EXPORT_RECORD_SCHEMA } from '../read-export/export-record.dto';
import type { ExportRecordView } from '../read-export/export-record.view';
import { exportCaller, ExportRecordViews } from '../read-export/export-record-views';
import { ExportRunner } from '../start-export/export-runner';
import { ExportRendersDto } from './export-renders.dto';

/**
 * Render history as CSV: an export like the Data Explorer's (explorerKey
 * `renders` on its record), through the account's one export slot; its
 * status and listing are the Data Explorer's (`…/data-explorer/export/{id}/status`,
 * `…/data-explorer/exports`).
 */
@Controller('api/websites/:website/renders')
@ApiTags('renders')
@ApiPublicEndpoint()
@ApiParam({ name: 'website', type: String, description: 'Website identifier' })
@ApiExtraModels(...EXPORT_RECORD_MODELS)
@RequiresWebsite({ role: 'readonly', platformModule: true })
export class ExportRendersController {
  constructor(
    private readonly runner: ExportRunner,
    private readonly views: ExportRecordViews,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('export')
  @ApiOperation({
    summary: 'Export render history as CSV: starts it, or rejoins the same question, and waits up to waitSeconds',
    description: "One export runs at a time per account, render history and Data Explorer exports alike. Follow it with GET …/data-explorer/export/{exportId}/status; it is listed by GET …/data-explorer/exports. The window is frozen when the export starts.",
  })
  @ApiOkResponse({ description: 'The export record (`explorerKey` `renders`): `running` if not finished within the wait, else `completed` or `failed`', schema: EXPORT_RECORD_SCHEMA })
  @ApiRefusesBadBodies()
  @ApiPublicError(409, 'EXPORT_SLOT_BUSY: another export is running for the account; `exportId` names it', ExportSlotBusyErrorDto)
  @ApiExplorerBusy()
  @HttpCode(200)
  async export(@Req() request: AuthorizedRequest, @Body(new BodyPipe(ExportRendersDto, { forbidUnknownKeys: true })) body: ExportRendersDto): Promise<ExportRecordView> {
    const access = request.access!;
    return this.views.of(await this.runner.start(exportCaller(access), rendersCatalogOf(this.config, access.website.id), body));
  }
}

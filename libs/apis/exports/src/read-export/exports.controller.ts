import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AppError } from '@bpc/domain';
import type { AppConfig } from '@bpc/config';
import { EXPLORER_KEYS, siteExplorerOf } from '@bpc/explorer';
import { APP_CONFIG, BodyPipe } from '@bpc/platform';
import { ApiExplorerBusy, ApiPublicEndpoint, ApiPublicError, ApiRefusesBadBodies, ApiUnknownExplorer, AuthorizedRequest, ExportSlotBusyErrorDto, RequiresWebsite } from '@bpc/public-api';
import { ExportRunner } from '../start-export/export-runner';
import { StartExportDto } from '../start-export/start-export.dto';
import { ExportIndex } from '../state/export-index';
import { EXPORT_LIST_LIMIT, userExports } from '../list-exports/user-exports';
import { EXPORT_LIST_SCHEMA, EXPORT_RECORD_MODELS, EXPORT_RECORD_SCHEMA } from './export-record.dto';
import type { ExportRecordView } from './export-record.view';
import { exportCaller, ExportRecordViews } from './export-record-views';

/** Export, export status and the caller's exports: any role on the website, and the platform module (as every Data Explorer endpoint). */
@Controller('api/websites/:website/data-explorer')
@ApiTags('data-explorer')
@ApiPublicEndpoint()
@ApiParam({ name: 'website', type: String, description: 'Website identifier' })
@ApiExtraModels(...EXPORT_RECORD_MODELS)
@RequiresWebsite({ role: 'readonly', platformModule: true })
export class ExportsController {
  constructor(
    private readonly runner: ExportRunner,
    private readonly index: ExportIndex,
    private readonly views: ExportRecordViews,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post(':explorerKey/export')
  @ApiOperation({
    summary: 'Export a query as CSV: starts it, or rejoins the same question, and waits up to waitSeconds',
    description: 'One export runs at a time per account. The window is frozen when the export starts.',
  })
  @ApiParam({ name: 'explorerKey', type: String, enum: EXPLORER_KEYS })
  @ApiOkResponse({ description: 'The export record: `running` if not finished within the wait, else `completed` or `failed`', schema: EXPORT_RECORD_SCHEMA })
  @ApiRefusesBadBodies()
  @ApiUnknownExplorer()
  @ApiPublicError(409, 'EXPORT_SLOT_BUSY: another export is running for the account; `exportId` names it', ExportSlotBusyErrorDto)
  @ApiExplorerBusy()
  @HttpCode(200)
  async export(
    @Req() request: AuthorizedRequest,
    @Param('explorerKey') explorerKey: string,
    @Body(new BodyPipe(StartExportDto, { forbidUnknownKeys: true })) body: StartExportDto,
  ): Promise<ExportRecordView> {
    const access = request.access!;
    // Render history is exported by POST …/renders/export: it is no explorer here.
    const explorer = siteExplorerOf(this.config, access.website.id, explorerKey);
    if (!explorer) throw new AppError('NOT_FOUND', `unknown explorer ${explorerKey}`);
    return this.views.of(await this.runner.start(exportCaller(access), explorer, body));
  }

  // One static segment: it cannot be taken for `:explorerKey/export` or `export/:exportId/status`.
  @Get('exports')
  @ApiOperation({
    summary: "The caller's exports on this website, newest first (completed ones with a freshly signed downloadUrl)",
    description: `Only exports the token's user started on this website, whatever the account's other users or websites ran; at most the ${EXPORT_LIST_LIMIT} newest, within the retention.`,
  })
  @ApiOkResponse({ description: 'The export records', schema: EXPORT_LIST_SCHEMA })
  async list(@Req() request: AuthorizedRequest): Promise<{ exports: ExportRecordView[] }> {
    await this.runner.ready();
    const access = request.access!;
    return { exports: userExports(this.index.all(), access.userId, access.website.id).map((record) => this.views.of(record)) };
  }

  @Get('export/:exportId/status')
  @ApiOperation({ summary: 'Read an export record, without waiting (a completed one carries a freshly signed downloadUrl)' })
  @ApiParam({ name: 'exportId', type: 'integer' })
  @ApiOkResponse({ description: 'The export record', schema: EXPORT_RECORD_SCHEMA })
  @ApiPublicError(404, "EXPORT_NOT_FOUND: no export of this id started by the token's user on this website")
  async status(@Req() request: AuthorizedRequest, @Param('exportId') exportId: string): Promise<ExportRecordView> {
    await this.runner.ready();
    const access = request.access!;
    const record = /^\d{1,15}$/.test(exportId) ? this.index.get(Number(exportId)) : undefined;
    if (!record || record.userId !== access.userId || record.websiteId !== access.website.id) {
      throw new AppError('EXPORT_NOT_FOUND', `no export ${exportId} of yours on website ${access.website.id}`);
    }
    return this.views.of(record);
  }
}

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AppError, type Clock } from '@bpc/domain';
import { CLOCK } from '@bpc/platform';
import { ApiInternalError, ApiPublicError } from '@bpc/public-api';
import { checkDownload, DOWNLOAD_PATH } from '../domain/download-link';
import { attachmentDisposition } from '../domain/export-question';
import { LINK_SIGNING_KEY } from '../http/link-signing';
import { ExportRunner } from '../start-export/export-runner';
import { ExportIndex } from '../state/export-index';

/**
 * The path behind `downloadUrl`: no token, the signature is the credential.
 * A link whose signature does not match (any edited part, or another
 * export's id) is 403 DOWNLOAD_LINK_INVALID; a genuine link past its expiry,
 * or one whose file is gone (retention ended), is 410 DOWNLOAD_LINK_EXPIRED.
 */
@Controller(DOWNLOAD_PATH.slice(1))
@ApiTags('data-explorer')
export class DownloadController {
  constructor(
    @Inject(LINK_SIGNING_KEY) private readonly key: Buffer,
    private readonly runner: ExportRunner,
    private readonly index: ExportIndex,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get(':exportId')
  @ApiOperation({
    summary: 'Download an export file through its signed link (the downloadUrl of a completed export record)',
    description: 'No token: the signature is the credential. Take the whole link from the export record; a fresh one is minted on every status read.',
    security: [],
  })
  @ApiParam({ name: 'exportId', type: 'integer' })
  @ApiQuery({ name: 'expires', type: 'integer', required: true, description: 'Unix seconds when the link expires, as signed' })
  @ApiQuery({ name: 'sig', type: String, required: true, description: 'HMAC-SHA256 of the link, hex' })
  @ApiResponse({
    status: 200,
    description: 'The CSV file (RFC 4180, UTF-8), as an attachment named after the export',
    content: { 'text/csv': { schema: { type: 'string' } } },
    headers: { 'Content-Disposition': { description: 'attachment; filename="…"; filename*=UTF-8\'\'…', schema: { type: 'string' } } },
  })
  @ApiPublicError(403, 'DOWNLOAD_LINK_INVALID: the link was altered, is incomplete, or names no export')
  @ApiPublicError(410, 'DOWNLOAD_LINK_EXPIRED: the link expired (read the export status for a fresh one), or the file is gone (retention ended)')
  @ApiInternalError()
  @ApiPublicError(503, 'LOG_UNAVAILABLE: exports cannot be read (their records are being replayed, or the event log is out of reach)')
  async download(@Param('exportId') exportId: string, @Query('expires') expires: string | undefined, @Query('sig') sig: string | undefined, @Res() reply: FastifyReply): Promise<void> {
    await this.runner.ready();
    const record = /^\d{1,15}$/.test(exportId) ? this.index.get(Number(exportId)) : undefined;
    // Without a record there is no fileId to check against: indistinguishable from a forged link.
    if (!record) throw new AppError('DOWNLOAD_LINK_INVALID', 'invalid or expired download link');
    const check = checkDownload(this.key, record.exportId, record.fileId, typeof expires === 'string' ? expires : undefined, typeof sig === 'string' ? sig : undefined, this.clock.now());
    if (check === 'tampered') throw new AppError('DOWNLOAD_LINK_INVALID', 'invalid download link');
    if (check === 'expired') throw new AppError('DOWNLOAD_LINK_EXPIRED', 'the download link has expired; read the export status for a fresh one');
    if (record.status !== 'completed') throw new AppError('DOWNLOAD_LINK_EXPIRED', 'the export file is no longer available');
    const file = this.runner.filePath(record);
    const size = await stat(file).then((s) => s.size, () => undefined);
    if (size === undefined) throw new AppError('DOWNLOAD_LINK_EXPIRED', 'the export file is no longer available');
    await reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-length', String(size))
      .header('content-disposition', attachmentDisposition(record.filename))
      .header('cache-control', 'private, no-store')
      .send(createReadStream(file));
  }
}

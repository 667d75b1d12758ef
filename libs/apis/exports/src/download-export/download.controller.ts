import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { AppConfig } from '@bpc/config';
import { AppError, type Clock } from '@bpc/domain';
import { OBJECT_STORE, type ObjectStore } from '@bpc/object-store';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import { ApiInternalError, ApiPublicError } from '@bpc/public-api';
import { CSV_CONTENT_TYPE } from '../csv/write-csv-object';
import { checkDownload, DOWNLOAD_PATH } from '../domain/download-link';
import { exportObjectKey } from '../domain/export-object-key';
import { attachmentDisposition } from '../domain/export-question';
import { LINK_SIGNING_KEY } from '../http/link-signing';
import { downloadErrorOf, fileGoneError, presignedLifetimeS, readableOrFailed } from './export-object-download';
import { ExportRunner } from '../start-export/export-runner';
import { ExportIndex } from '../state/export-index';

/**
 * The path behind `downloadUrl`: no token, the signature is the credential.
 * A link whose signature does not match (any edited part, or another
 * export's id) is 403 DOWNLOAD_LINK_INVALID; a genuine link past its expiry,
 * or one whose file is gone (retention ended), is 410 DOWNLOAD_LINK_EXPIRED;
 * an object store out of reach is 503 STORE_UNAVAILABLE. The file streams
 * from the object store, or, with `exports.download_redirect` and a store
 * that presigns (S3), the answer is a 302 to a presigned URL.
 */
@Controller(DOWNLOAD_PATH.slice(1))
@ApiTags('data-explorer')
export class DownloadController {
  constructor(
    @Inject(LINK_SIGNING_KEY) private readonly key: Buffer,
    private readonly runner: ExportRunner,
    private readonly index: ExportIndex,
    @Inject(OBJECT_STORE) private readonly objects: ObjectStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
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
  @ApiResponse({
    status: 302,
    description:
      'Only with `exports.download_redirect` on an object store that presigns URLs (S3): `Location` is a presigned URL of the file, valid for what is left of the link (at most 15 minutes), which answers the same attachment',
    headers: { Location: { description: 'The presigned URL', schema: { type: 'string' } } },
  })
  @ApiPublicError(403, 'DOWNLOAD_LINK_INVALID: the link was altered, is incomplete, or names no export')
  @ApiPublicError(410, 'DOWNLOAD_LINK_EXPIRED: the link expired (read the export status for a fresh one), or the file is gone (retention ended)')
  @ApiInternalError()
  @ApiPublicError(503, 'LOG_UNAVAILABLE: exports cannot be read (their records are being replayed, or the event log is out of reach); STORE_UNAVAILABLE: the store holding export files cannot be reached (try the link again later)')
  async download(@Param('exportId') exportId: string, @Query('expires') expires: string | undefined, @Query('sig') sig: string | undefined, @Res() reply: FastifyReply): Promise<void> {
    await this.runner.ready();
    const record = /^\d{1,15}$/.test(exportId) ? this.index.get(Number(exportId)) : undefined;
    // Without a record there is no fileId to check against: indistinguishable from a forged link.
    if (!record) throw new AppError('DOWNLOAD_LINK_INVALID', 'invalid or expired download link');
    const check = checkDownload(this.key, record.exportId, record.fileId, typeof expires === 'string' ? expires : undefined, typeof sig === 'string' ? sig : undefined, this.clock.now());
    if (check === 'tampered') throw new AppError('DOWNLOAD_LINK_INVALID', 'invalid download link');
    if (check === 'expired') throw new AppError('DOWNLOAD_LINK_EXPIRED', 'the download link has expired; read the export status for a fresh one');
    if (record.status !== 'completed') throw fileGoneError();
    const key = exportObjectKey(record.exportId);
    const found = await this.objects.stat(key).catch((error: unknown) => {
      throw downloadErrorOf(error);
    });
    if (!found) throw fileGoneError();
    const disposition = attachmentDisposition(record.filename);
    if (this.config.exports.download_redirect && this.objects.presignedUrl) {
      const url = await this.objects.presignedUrl(key, presignedLifetimeS(Number(expires), this.clock.now()), { contentDisposition: disposition, contentType: CSV_CONTENT_TYPE }).catch((error: unknown) => {
        throw downloadErrorOf(error);
      });
      await reply.header('cache-control', 'private, no-store').redirect(url, 302);
      return;
    }
    const body = await readableOrFailed(this.objects.open(key)).catch((error: unknown) => {
      throw downloadErrorOf(error);
    });
    await reply
      .header('content-type', CSV_CONTENT_TYPE)
      .header('content-length', String(found.bytes))
      .header('content-disposition', disposition)
      .header('cache-control', 'private, no-store')
      .send(body);
  }
}

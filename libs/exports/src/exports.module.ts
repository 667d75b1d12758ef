import { Module } from '@nestjs/common';
import { AccountLimits } from '@bpc/explorer';
import { DownloadController } from './download-export/download.controller';
import { DownloadLinkBase } from './http/download-link-base';
import { linkSigningKeyProvider } from './http/link-signing';
import { ExportsController } from './read-export/exports.controller';
import { ExportRunner } from './start-export/export-runner';
import { ExportIndex } from './state/export-index';

/** CSV exports of the Data Explorer (spec/public-api.md): export, status, signed download. Mounted by the public-api app next to PublicApiModule (its guard authenticates). */
@Module({
  controllers: [ExportsController, DownloadController],
  providers: [AccountLimits, DownloadLinkBase, ExportIndex, ExportRunner, linkSigningKeyProvider],
})
export class ExportsModule {}

import { Module } from '@nestjs/common';
import { ExplorerModule } from '@bpc/explorer';
import { DownloadController } from './download-export/download.controller';
import { ExportRendersController } from './export-renders/export-renders.controller';
import { PublicApiBaseUrl } from '@bpc/public-api';
import { linkSigningKeyProvider } from './http/link-signing';
import { ExportRecordViews } from './read-export/export-record-views';
import { ExportsController } from './read-export/exports.controller';
import { ExportRunner } from './start-export/export-runner';
import { ExportIndex } from './state/export-index';

/** CSV exports of the Data Explorer (spec/public-api.md) and of render history: export, status, signed download. Mounted by the public-api app next to PublicApiModule (its guard authenticates); shares the explorer's admission queue. */
@Module({
  imports: [ExplorerModule],
  controllers: [ExportsController, ExportRendersController, DownloadController],
  providers: [PublicApiBaseUrl, ExportIndex, ExportRunner, ExportRecordViews, linkSigningKeyProvider],
})
export class ExportsModule {}

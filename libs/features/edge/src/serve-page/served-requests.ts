import { performance } from 'node:perf_hooks';
import type { Clock } from '@bpc/domain';
import type { CacheStatus } from '@bpc/events';
import { botNameOf } from '../bot-name/bot-name';
import type { BotRequestRecorder } from '../record-bot-request/bot-request-recorder';
import type { PageRequest } from './page-request';
import { requestMemo } from './request-memo';

/** What the bot was answered, as recorded. */
export interface ServedAnswer {
  readonly statusCode: number;
  readonly cacheStatus: CacheStatus;
  readonly title: string;
  readonly snapshotAgeS: number | null;
  readonly bytes: number;
}

/** Hands each answered page request to the recorder (when `edge.record_requests` is on), named by its bot. */
export class ServedRequests {
  private readonly botNames = requestMemo(botNameOf);

  constructor(
    private readonly enabled: boolean,
    private readonly clock: Clock,
    private readonly recorder: BotRequestRecorder,
  ) {}

  record(page: PageRequest, served: ServedAnswer): void {
    if (!this.enabled) return;
    this.recorder.record({
      websiteId: page.website.id,
      host: page.hostname,
      url: page.url,
      pageTitle: served.title,
      statusCode: served.statusCode,
      botName: this.botNames.get(page.request.userAgent),
      userAgent: page.request.userAgent.slice(0, 1000),
      dimensionId: page.dimension.id,
      dimensionName: page.dimension.name,
      cacheStatus: served.cacheStatus,
      serveTimeMs: Math.round(performance.now() - page.started),
      snapshotAgeS: served.snapshotAgeS,
      bytes: served.bytes,
      servedAtMs: this.clock.now(),
      requestId: page.requestId,
    });
  }
}

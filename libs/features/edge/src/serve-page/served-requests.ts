import { performance } from 'node:perf_hooks';
import type { Clock } from '@bpc/domain';
import type { CacheStatus } from '@bpc/events';
import type { AnswerFormat } from '../answer-format/answer-format';
import type { BotRequestRecorder } from '../record-bot-request/bot-request-recorder';
import type { RobotsVerdicts } from '../robots-verdict/robots-verdicts';
import type { PageRequest } from './page-request';

/** What the bot was answered, as recorded. */
export interface ServedAnswer {
  readonly statusCode: number;
  readonly cacheStatus: CacheStatus;
  readonly title: string;
  readonly snapshotAgeS: number | null;
  readonly bytes: number;
  /** What the body is: the page's HTML (or the stored answer, or an error), or Markdown for agents. */
  readonly format: AnswerFormat;
}

/** Hands each answered page request to the recorder (when `edge.record_requests` is on), named by its bot, with its verification and robots.txt verdict. */
export class ServedRequests {
  constructor(
    private readonly enabled: boolean,
    private readonly clock: Clock,
    private readonly recorder: BotRequestRecorder,
    private readonly robots: RobotsVerdicts,
  ) {}

  record(page: PageRequest, served: ServedAnswer): void {
    if (!this.enabled) return;
    const bot = page.bot.identity;
    this.recorder.record({
      websiteId: page.website.id,
      host: page.hostname,
      url: page.url,
      pageTitle: served.title,
      statusCode: served.statusCode,
      botName: bot.name,
      userAgent: page.request.userAgent.slice(0, 1000),
      dimensionId: page.dimension.id,
      dimensionName: page.dimension.name,
      cacheStatus: served.cacheStatus,
      serveTimeMs: Math.round(performance.now() - page.started),
      snapshotAgeS: served.snapshotAgeS,
      bytes: served.bytes,
      servedAtMs: this.clock.now(),
      requestId: page.requestId,
      format: served.format,
      botCategory: bot.category,
      botOperator: bot.operator,
      verified: page.bot.verified,
      robotsAllowed: this.robots.of(page),
    });
  }
}

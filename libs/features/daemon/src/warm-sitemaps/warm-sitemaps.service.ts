import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Logger } from 'pino';
import { RecacheSitemap, SitemapRecacheAccepted } from '@bpc/cache-operations';
import type { AppConfig } from '@bpc/config';
import { AppError, type Clock } from '@bpc/domain';
import { APP_CONFIG, CLOCK, LOGGER } from '@bpc/platform';
import { DAEMON_ID } from '../shared/daemon-id';
import { dueWarmUpTurns, sitemapKey, type WarmUpSitemap, type WarmUpTurn } from './warm-up-schedule';
import { WARM_UP_TURNS, type WarmUpTurns } from './warm-up-turns.port';

/**
 * Keeps websites' caches warm: every configured sitemap (`websites[].sitemaps`)
 * is recached once per interval, at normal priority, through the same
 * RecacheSitemap as the public API (source `sitemap`, one receipt per run).
 * Checked on each scheduler tick against the injected clock; of several
 * daemons, the one that claims the interval's turn runs it (`WarmUpTurns`).
 * A run that fails (sitemap refused, log down) is logged and waits for the
 * next interval; one that could not claim its turn (store down) is tried
 * again at the next check.
 */
@Injectable()
export class WarmSitemaps implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly sitemaps: readonly WarmUpSitemap[];
  /** The last interval handled here, per sitemap key. */
  private readonly handled = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(WARM_UP_TURNS) private readonly turns: WarmUpTurns,
    @Inject(DAEMON_ID) private readonly daemonId: string,
  ) {
    this.sitemaps = config.websites.flatMap((website) => website.sitemaps.map((s) => ({ websiteId: website.id, hostId: website.host_id, url: s.url, everyMinutes: s.every_minutes })));
  }

  onApplicationBootstrap(): void {
    if (this.sitemaps.length === 0) return;
    this.timer = setInterval(() => void this.check(), this.config.scheduler.tick_ms);
    void this.check();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    // A check still running ends here, before the composition root closes the turns with the other ports.
    await this.running;
  }

  /** One check: runs the turns due now that this daemon wins; a check still running makes the next one wait its turn. */
  check(): Promise<void> {
    this.running ??= this.runDue().finally(() => (this.running = undefined));
    return this.running;
  }

  private async runDue(): Promise<void> {
    for (const turn of dueWarmUpTurns(this.sitemaps, this.clock.now(), this.handled)) {
      let mine: boolean;
      try {
        mine = await this.turns.claim(turn.key, this.daemonId, turn.ttlMs);
      } catch (error) {
        this.logger.warn({ website: turn.sitemap.websiteId, sitemap: turn.sitemap.url, err: error }, 'sitemap warm-up: the turn could not be claimed, trying again at the next check');
        continue;
      }
      this.handled.set(sitemapKey(turn.sitemap), turn.interval);
      if (mine) await this.run(turn);
      else this.logger.info({ website: turn.sitemap.websiteId, sitemap: turn.sitemap.url, interval: turn.interval }, 'sitemap warm-up: another daemon has this interval');
    }
  }

  private async run({ sitemap }: WarmUpTurn): Promise<void> {
    const where = { website: sitemap.websiteId, sitemap: sitemap.url };
    try {
      const done = await this.commands.execute<RecacheSitemap, SitemapRecacheAccepted>(new RecacheSitemap(sitemap.hostId, sitemap.url, 'normal'));
      this.logger.info({ ...where, ...done }, 'sitemap warm-up queued');
    } catch (error) {
      const reason = error instanceof AppError ? error.message : undefined;
      this.logger.warn({ ...where, ...(reason ? { reason } : { err: error }) }, 'sitemap warm-up failed, next try in the next interval');
    }
  }
}

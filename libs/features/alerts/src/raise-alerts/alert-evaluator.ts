import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { type Alert, type Clock, decideCriticalPagesUpAlert, decideNoindexAppearedAlert, decidePageErrorAlerts, decideRenderFailureAlert } from '@bpc/domain';
import { newAlertRaised, TOPICS } from '@bpc/events';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { EXPLORER_STORE, ExplorerStore } from '@bpc/explorer-store';
import { CLOCK, LOGGER } from '@bpc/platform';
import { ALERT_TARGETS, type AlertTarget } from '../alert-targets.provider';
import { criticalPagesFigures, noindexAppearedFigures, pageRequestFigures, renderFailureFigures } from './alert-figures';

/** How often the window rules are evaluated. */
export const ALERT_EVALUATION_INTERVAL_MS = 60_000;
/** Alert ids raised by this process, remembered so a rule still true at the next evaluation appends nothing new (the deliverer would fold it anyway). */
const REMEMBERED_IDS = 10_000;

/**
 * Evaluates the window rules (render failures, pages turning to errors,
 * noindex appearing on many pages, pages with critical issues rising day
 * over day) of
 * every website with a webhook, once a minute, from the ClickHouse read
 * models, and raises what fires as AlertRaised events. Every projector
 * replica evaluates: they raise the same alert ids, and the deliverer
 * delivers each once.
 */
@Injectable()
export class AlertEvaluator implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly raised = new Set<string>();
  private timer?: NodeJS.Timeout;
  private evaluating?: Promise<void>;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(EXPLORER_STORE) private readonly store: ExplorerStore,
    @Inject(ALERT_TARGETS) private readonly targets: readonly AlertTarget[],
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.targets.some((t) => t.renderFailures || t.pageErrors || t.noindexAppeared || t.criticalPagesUp)) return;
    this.timer = setInterval(() => {
      this.evaluating ??= this.evaluate()
        .then(() => undefined)
        .catch((error: unknown) => this.logger.warn({ err: error }, 'alert rules could not be evaluated; trying again at the next interval'))
        .finally(() => (this.evaluating = undefined));
    }, ALERT_EVALUATION_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.evaluating;
  }

  /** Evaluates every website's rules at the clock's now and raises new alerts; returns them. */
  async evaluate(): Promise<Alert[]> {
    const now = this.clock.now();
    const fired = (await Promise.all(this.targets.map((target) => this.firedFor(target, now)))).flat().filter((a) => !this.raised.has(a.id));
    if (fired.length === 0) return [];
    await this.log.append(TOPICS.alerts, fired.map((alert) => newAlertRaised({ alertId: alert.id, type: alert.type, website: alert.website, alertOccurredAt: alert.occurredAt, data: alert.data }, now)));
    for (const alert of fired) this.remember(alert.id);
    return fired;
  }

  private async firedFor(target: AlertTarget, now: number): Promise<Alert[]> {
    const fired: Alert[] = [];
    const { renderFailures, pageErrors, noindexAppeared, criticalPagesUp } = target;
    if (renderFailures) {
      const figures = await renderFailureFigures(this.store, target.hostId, now - renderFailures.windowMinutes * 60_000, now);
      const alert = decideRenderFailureAlert(target.website, renderFailures, figures, now);
      if (alert) fired.push(alert);
    }
    if (pageErrors) {
      const window = pageErrors.windowMinutes * 60_000;
      const pages = await pageRequestFigures(this.store, target.website, now - 2 * window, now - window, now, pageErrors.minRequests);
      fired.push(...decidePageErrorAlerts(target.website, pageErrors, pages, now));
    }
    if (noindexAppeared) {
      const figures = await noindexAppearedFigures(this.store, target.hostId, now - noindexAppeared.windowMinutes * 60_000, now);
      const alert = decideNoindexAppearedAlert(target.website, noindexAppeared, figures, now);
      if (alert) fired.push(alert);
    }
    if (criticalPagesUp) {
      const alert = decideCriticalPagesUpAlert(target.website, criticalPagesUp, await criticalPagesFigures(this.store, target.hostId, now), now);
      if (alert) fired.push(alert);
    }
    return fired;
  }

  private remember(id: string): void {
    this.raised.add(id);
    if (this.raised.size > REMEMBERED_IDS) this.raised.delete(this.raised.values().next().value as string);
  }
}

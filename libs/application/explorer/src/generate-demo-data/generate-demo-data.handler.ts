import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { AppConfig } from '@bpc/config';
import { AppError, Clock, validationError } from '@bpc/domain';
import { ALERT_DELIVERY_ATTEMPTED, EventEnvelope, TOPICS } from '@bpc/events';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import { type AlertInput, alertInputsOf, demoAlertEvents, demoAlerts } from './demo-alerts';
import { demoSearchDays, demoTraffic } from './demo-traffic';
import { DemoDataWritten, GenerateDemoData } from './generate-demo-data.command';

const CHUNK = 5000;
const DAY_MS = 86_400_000;

/**
 * Appends demo events day by day, in order (one key per website, or its host
 * for renders and queue events, keeps them in one partition), then the
 * alerts its renders raised with their deliveries, in one append: the alert
 * deliverer only sends once it has read the whole topic, so it never sees a
 * demo alert without the tries that finished it.
 */
@CommandHandler(GenerateDemoData)
export class GenerateDemoDataHandler implements ICommandHandler<GenerateDemoData, DemoDataWritten> {
  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input }: GenerateDemoData): Promise<DemoDataWritten> {
    const website = this.config.websites.find((w) => w.id === input.websiteId);
    if (!website) throw validationError('website', `unknown website ${input.websiteId}`);
    const hostname = this.config.hosts.find((h) => h.host_id === website.host_id)?.hostnames[0];
    if (!hostname) throw validationError('website', `website ${website.id} has no host`);
    const options = { websiteId: website.id, hostId: website.host_id, hostname, nowMs: this.clock.now(), days: input.days, requestsPerDay: input.requestsPerDay, seed: input.seed };
    let botRequests = 0;
    let renders = 0;
    const receipts: string[] = [];
    const alertInputs: AlertInput[] = [];
    for (const day of demoTraffic(options)) {
      for (let i = 0; i < day.botRequests.length; i += CHUNK) await this.append(TOPICS.botRequests, day.botRequests.slice(i, i + CHUNK));
      for (let i = 0; i < day.renders.length; i += CHUNK) await this.append(TOPICS.renders, day.renders.slice(i, i + CHUNK));
      await this.append(TOPICS.queue, day.queue);
      botRequests += day.botRequests.length;
      renders += day.renders.length;
      receipts.push(...day.receipts);
      alertInputs.push(...alertInputsOf(day.renders));
    }
    let searchDays = 0;
    for (const day of demoSearchDays(options)) {
      await this.append(TOPICS.searchPerformance, day);
      searchDays += 1;
    }
    const today = Math.floor(options.nowMs / DAY_MS) * DAY_MS;
    const firstDay = today - (input.days - 1) * DAY_MS;
    const alerts = demoAlertEvents(demoAlerts(alertInputs, { websiteId: website.id, fromMs: firstDay, nowMs: options.nowMs }));
    await this.append(TOPICS.alerts, alerts);
    const alertDeliveries = alerts.filter((e) => e.type === ALERT_DELIVERY_ATTEMPTED).length;
    return { websiteId: website.id, botRequests, renders, searchDays, receipts, alertDeliveries, from: new Date(firstDay).toISOString().slice(0, 10), to: new Date(today).toISOString().slice(0, 10) };
  }

  private async append(topic: string, events: readonly EventEnvelope[]): Promise<void> {
    if (events.length === 0) return;
    try {
      await this.log.append(topic, events);
    } catch (error) {
      throw new AppError('LOG_UNAVAILABLE', `event log unavailable: ${(error as Error).message}`);
    }
  }
}

import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppError, assertNever, Clock, validationError } from '@bpc/domain';
import { envelope, SEARCH_PERFORMANCE_RECORDED, SearchPerformanceRecorded, TOPICS } from '@bpc/events';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { CLOCK } from '@bpc/platform';
import { ImportSearchPerformance, SearchPerformanceImported } from './import-search-performance.command';
import { parseSearchAnalyticsRows, parseSearchConsoleCsv, SearchDay } from './search-console-parse';

/**
 * Rows per event: a large day is recorded as several events (well under
 * Kafka's default 1 MB message size). They share `occurredAt`, so together
 * they are one import of that day (one `imported_at`, one latest-import marker).
 */
export const SEARCH_ROWS_PER_EVENT = 5_000;

/** Parses the export, then records the events of every day and grain in one append. */
@CommandHandler(ImportSearchPerformance)
export class ImportSearchPerformanceHandler implements ICommandHandler<ImportSearchPerformance, SearchPerformanceImported> {
  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input }: ImportSearchPerformance): Promise<SearchPerformanceImported> {
    // A day is recorded only with rows: a day's latest import replaces it, so an empty one would wipe its figures.
    const days = this.parse(input).filter((day) => day.rows.length > 0);
    if (days.length === 0) throw validationError(input.format === 'searchanalytics_json' ? 'rows' : 'content', 'the export holds no rows');
    const now = new Date(this.clock.now());
    const source = input.format === 'searchanalytics_json' ? 'search-console-api' : 'search-console-csv';
    const events: SearchPerformanceRecorded[] = days.flatMap((day) =>
      chunks(day.rows, SEARCH_ROWS_PER_EVENT).map((rows) =>
        envelope(SEARCH_PERFORMANCE_RECORDED, 1, { websiteId: input.websiteId, date: day.date, grain: day.grain, rows, source }, { id: randomUUID(), occurredAt: now, key: input.websiteId }),
      ),
    );
    try {
      await this.log.append(TOPICS.searchPerformance, events);
    } catch (error) {
      throw new AppError('LOG_UNAVAILABLE', `event log unavailable, the import was not acknowledged (most likely not recorded: send it again, a day's later import replaces it): ${(error as Error).message}`);
    }
    return { websiteId: input.websiteId, days: days.map((d) => ({ date: d.date, grain: d.grain, rows: d.rows.length })) };
  }

  private parse(input: ImportSearchPerformance['input']): SearchDay[] {
    switch (input.format) {
      case 'pages_csv':
      case 'queries_csv':
        if (typeof input.content !== 'string') throw validationError('content', 'content must hold the CSV text');
        return parseSearchConsoleCsv(input.content, input.format, input.date);
      case 'searchanalytics_json':
        if (!Array.isArray(input.rows)) throw validationError('rows', 'rows must hold the searchanalytics.query response rows');
        return parseSearchAnalyticsRows(input.rows, input.dimensions ?? ['date', 'page', 'query']);
      default:
        return assertNever(input.format);
    }
  }
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

import { execFile } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AppConfig } from '@bpc/config';
import { decodeFrames } from '@bpc/event-log';
import { TOPICS } from '@bpc/events';
import { PublishedEventValidator } from './published-event-schemas';

/**
 * Every event the e2e suites produce is validated against the published
 * schemas (`deploy/event-schemas`) with ajv, as a downstream consumer would:
 * - file log: the segment files of each data directory a suite's
 *   configuration names, read when the suite removes the directory
 *   (`removeTestDataDir`) or at the end of its file;
 * - Kafka: the topics of each namespace a suite's configuration names, read
 *   with kcat at the end of its file (shared broker) or when the suite stops
 *   a broker of its own (`startKafkaMock`).
 * A file whose events do not match fails, naming the event and ajv's errors;
 * the counts per type and mode go to the run's directory, summed and printed
 * by the global teardown.
 */

export type EventLogMode = 'file log' | 'kafka';

/** One event as read from a log, with where it lies. */
interface StoredEvent {
  readonly where: string;
  readonly json: string;
  /** The Kafka message key, which must be the envelope's. */
  readonly kafkaKey?: string | null;
}

/** The counts of one audit, appended to the run's `counts.jsonl` (one JSON object a line). */
interface AuditCounts {
  readonly mode: EventLogMode;
  readonly counts: Record<string, number>;
}

/** Set by the global setup: where workers leave their counts. */
export const EVENT_AUDIT_DIR_ENV = 'TEST_EVENT_AUDIT_DIR';
const COUNTS_FILE = 'counts.jsonl';
/** At most this many bad events are spelled out in a failure. */
const SHOWN_FAILURES = 20;
/** A kcat read of a broker that does not answer gives up after this long. */
const KCAT_TIMEOUT_MS = 60_000;

const execFileAsync = promisify(execFile);

/** What this test file's configurations named, and what was found wrong (module state: one test file per module registry). */
const watched = {
  active: false,
  /** Data directories of file-log configurations: true once their events were checked. */
  dataDirs: new Map<string, boolean>(),
  /** Kafka namespaces of cluster configurations: true once their topics were read. */
  namespaces: new Map<string, boolean>(),
  failures: [] as string[],
};

let validator: PublishedEventValidator | undefined;

/** Turns the audit on for this test file (the e2e setup does; other tiers write test events of their own). */
export function auditEventsOfThisFile(): void {
  watched.active = true;
}

/** Watches the event log `config` names: its data directory in file-log mode, its Kafka namespace otherwise. */
export function watchEventLogOf(config: AppConfig): void {
  if (!watched.active) return;
  if (config.adapters.event_log === 'file') watchDataDir(config.data_dir);
  else if (config.kafka && !watched.namespaces.has(config.kafka.namespace)) watched.namespaces.set(config.kafka.namespace, false);
}

/** Watches a data directory whose file log a spawned process writes. */
export function watchDataDir(dataDir: string): void {
  if (watched.active && !watched.dataDirs.has(dataDir)) watched.dataDirs.set(dataDir, false);
}

/** Removes a test's directory, the events of every watched data directory in it checked first (see the top of this file). */
export function removeTestDataDir(dir: string): void {
  try {
    for (const [dataDir, checked] of watched.dataDirs) if (!checked && isWithin(dataDir, dir)) checkDataDir(dataDir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function isWithin(inner: string, outer: string): boolean {
  const relative = path.relative(outer, inner);
  return !relative.startsWith('..') && !path.isAbsolute(relative);
}

/**
 * Checks what is left at the end of a test file: data directories still
 * there, namespaces on the shared broker. Throws the file's failures.
 */
export async function auditRemainingEvents(sharedBrokers: string | undefined): Promise<void> {
  if (!watched.active) return;
  for (const [dataDir, checked] of watched.dataDirs) {
    if (checked) continue;
    if (existsSync(dataDir)) checkDataDir(dataDir);
    else watched.failures.push(`${dataDir} was removed before its events were checked: remove test data directories with removeTestDataDir`);
  }
  if (sharedBrokers) await auditKafkaBroker(sharedBrokers);
  const failures = watched.failures.splice(0);
  watched.dataDirs.clear();
  watched.namespaces.clear();
  if (failures.length > 0) throw new Error(`event audit against deploy/event-schemas failed:\n${failures.join('\n')}`);
}

/** Reads and checks the topics of every watched namespace not read yet that `brokers` holds; never throws. */
export async function auditKafkaBroker(brokers: string): Promise<void> {
  if (!watched.active) return;
  const pending = [...watched.namespaces].filter(([, read]) => !read).map(([namespace]) => namespace);
  if (pending.length === 0) return;
  try {
    const present = new Set(await kafkaTopics(brokers));
    const topics = pending.flatMap((namespace) => Object.values(TOPICS).map((topic) => ({ namespace, name: namespace ? `${namespace}.${topic}` : topic })));
    const found = topics.filter((topic) => present.has(topic.name));
    const events = (await inTurns(found, 4, (topic) => kafkaEvents(brokers, topic.name))).flat();
    check('kafka', events);
    for (const topic of found) watched.namespaces.set(topic.namespace, true);
  } catch (error) {
    // Reported with the file's other failures: the caller (a broker's stop) must go on.
    watched.failures.push(`could not read the topics of ${pending.join(', ')} on ${brokers}: ${(error as Error).message}`);
  }
}

function checkDataDir(dataDir: string): void {
  watched.dataDirs.set(dataDir, true);
  check('file log', fileLogEvents(dataDir));
}

function check(mode: EventLogMode, events: readonly StoredEvent[]): void {
  validator ??= new PublishedEventValidator();
  const counts: Record<string, number> = {};
  const failures: string[] = [];
  for (const stored of events) {
    const { event, problem } = parsed(stored, validator);
    if (problem) failures.push(`${mode} ${stored.where}: ${problem}\n  ${stored.json.slice(0, 2000)}`);
    else counts[`${event.type} v${event.version}`] = (counts[`${event.type} v${event.version}`] ?? 0) + 1;
  }
  if (failures.length > 0) watched.failures.push(`${failures.length} of ${events.length} events (${mode}):`, ...failures.slice(0, SHOWN_FAILURES));
  const dir = process.env[EVENT_AUDIT_DIR_ENV];
  if (dir && events.length > 0) appendFileSync(path.join(dir, COUNTS_FILE), `${JSON.stringify({ mode, counts } satisfies AuditCounts)}\n`);
}

function parsed(stored: StoredEvent, schemas: PublishedEventValidator): { event: { type: string; version: number }; problem?: string } {
  let event: { type: string; version: number; key?: unknown };
  try {
    event = JSON.parse(stored.json);
  } catch (error) {
    return { event: { type: '?', version: 0 }, problem: `not JSON: ${(error as Error).message}` };
  }
  const problem = schemas.problems(event);
  if (problem) return { event, problem };
  if (stored.kafkaKey !== undefined && stored.kafkaKey !== event.key) return { event, problem: `Kafka key ${JSON.stringify(stored.kafkaKey)} is not the envelope's key ${JSON.stringify(event.key)}` };
  return { event };
}

/** Every complete record of every segment in `<dataDir>/event-log` (a torn tail left by a kill is not a record). */
function fileLogEvents(dataDir: string): StoredEvent[] {
  const topicsDir = path.join(dataDir, 'event-log', 'topics');
  if (!existsSync(topicsDir)) return [];
  const events: StoredEvent[] = [];
  for (const topic of readdirSync(topicsDir)) {
    for (const partition of readdirSync(path.join(topicsDir, topic))) {
      const dir = path.join(topicsDir, topic, partition);
      for (const segment of readdirSync(dir).filter((name) => name.endsWith('.log'))) {
        const decoded = decodeFrames(readFileSync(path.join(dir, segment)), 0, Number(segment.slice(0, -4)));
        for (const frame of decoded.frames) events.push({ where: `${topic}:${partition}@${frame.offset} in ${dataDir}`, json: frame.payload.toString('utf8') });
      }
    }
  }
  return events;
}

async function kafkaTopics(brokers: string): Promise<string[]> {
  const { stdout } = await execFileAsync('kcat', ['-b', brokers, '-L', '-J', '-m', '10'], { maxBuffer: 64 * 1024 * 1024, timeout: KCAT_TIMEOUT_MS });
  return (JSON.parse(stdout) as { topics: { topic: string }[] }).topics.map((t) => t.topic);
}

/** Every message of `topic` from the beginning, read with kcat as a downstream consumer would. */
async function kafkaEvents(brokers: string, topic: string): Promise<StoredEvent[]> {
  const { stdout } = await execFileAsync('kcat', ['-b', brokers, '-C', '-t', topic, '-o', 'beginning', '-e', '-J', '-q', '-m', '10', '-X', 'fetch.wait.max.ms=10'], { maxBuffer: 1024 * 1024 * 1024, timeout: KCAT_TIMEOUT_MS });
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const message = JSON.parse(line) as { partition: number; offset: number; key: string | null; payload: string };
      return { where: `${topic}:${message.partition}@${message.offset}`, json: message.payload, kafkaKey: message.key };
    });
}

/** `work` over `items`, at most `concurrency` at a time, results in order. */
async function inTurns<T, R>(items: readonly T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

/** The counts every audit of the run left in `dir`, summed per event type and version, and per mode. */
export function eventAuditSummary(dir: string): Map<string, Record<EventLogMode, number>> {
  const file = path.join(dir, COUNTS_FILE);
  const summary = new Map<string, Record<EventLogMode, number>>();
  if (!existsSync(file)) return summary;
  for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const { mode, counts } = JSON.parse(line) as AuditCounts;
    for (const [type, count] of Object.entries(counts)) {
      const row = summary.get(type) ?? { 'file log': 0, kafka: 0 };
      row[mode] += count;
      summary.set(type, row);
    }
  }
  return summary;
}

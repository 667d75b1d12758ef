import type { EventLog } from '@bpc/event-log';
import { newRenderRecorded, RenderRecorded } from '@bpc/events';
import { createLogger } from '@bpc/platform';
import pino from 'pino';
import { Counter, Registry } from 'prom-client';
import { EventRecorder, EventRecorderOptions, RecorderSpill } from './event-recorder';

const fact = (n: number): RenderRecorded =>
  newRenderRecorded({ hostId: 1, url: `https://www.example.com/p${n}`, dimensionId: 1, mode: 'render', trigger: 'edge_miss', outcome: 'stored', reason: '', statusCode: 200, renderMs: 1, bytes: 1, attempt: 1 }, Date.now());

const urls = (events: readonly RenderRecorded[]): string[] => events.map((event) => event.payload.url.slice(-2));

/** A log whose appends the test scripts; nothing reads from it. */
function scriptedLog(append: (topic: string, events: readonly RenderRecorded[]) => Promise<void>): EventLog {
  return {
    append: (topic, events) => append(topic, events as readonly RenderRecorded[]),
    subscribe: () => Promise.reject(new Error('a scripted log has nothing to read')),
    check: async () => undefined,
    close: async () => undefined,
  };
}

/** A spill kept in memory: what it was given, or a failure to write. */
class MemorySpill implements RecorderSpill<RenderRecorded> {
  written: RenderRecorded[] = [];
  constructor(private readonly fails = false) {}
  async write(events: readonly RenderRecorded[]): Promise<number> {
    if (this.fails) throw new Error('disk full');
    this.written.push(...events);
    return events.length;
  }
  async replay(): Promise<void> {}
}

function recorderWith(log: EventLog, overrides: Partial<EventRecorderOptions<RenderRecorded>> = {}) {
  const registry = new Registry();
  const recorder = new EventRecorder<RenderRecorded>({
    topic: 'facts',
    log,
    logger: createLogger('silent', 'recorder'),
    bufferMax: 100,
    batchMax: 2,
    batchesPerAppend: 2,
    // The timer never fires here: flushes are called by hand.
    flushMs: 60_000,
    shutdownFlushMs: 300,
    dropped: new Counter({ name: 'dropped', help: 'dropped', registers: [registry] }),
    appended: new Counter({ name: 'appended', help: 'appended', registers: [registry] }),
    noun: 'facts',
    bufferFullMessage: 'fact buffer full',
    ...overrides,
  });
  return { recorder, registry };
}

describe('EventRecorder', () => {
  it('appends sealed batches to its topic, batchesPerAppend at a time, in the order they were added, and counts them', async () => {
    const appends: [string, string[]][] = [];
    const { recorder, registry } = recorderWith(scriptedLog(async (topic, events) => void appends.push([topic, urls(events)])));
    recorder.start();
    for (let n = 1; n <= 5; n += 1) recorder.add(fact(n));
    expect(recorder.pending()).toBe(5);
    await recorder.flush();
    expect(appends).toEqual([
      ['facts', ['p1', 'p2', 'p3', 'p4']],
      ['facts', ['p5']],
    ]);
    expect(recorder.pending()).toBe(0);
    expect(await registry.getSingleMetricAsString('appended')).toContain('appended 5');
    await recorder.stop();
  });

  it('keeps a refused batch with its ids, drops the oldest beyond bufferMax (logged once), and appends the rest after the backoff', async () => {
    const appended: RenderRecorded[] = [];
    let refusing = true;
    const lines: { msg: string; capacity?: number }[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const log = scriptedLog(async (_topic, events) => {
      if (refusing) throw new Error('log down');
      appended.push(...events);
    });
    const { recorder, registry } = recorderWith(log, { bufferMax: 3, logger });
    recorder.start();
    const first = fact(1);
    recorder.add(first);
    await recorder.flush();
    for (let n = 2; n <= 4; n += 1) recorder.add(fact(n));
    expect(recorder.pending()).toBe(3);
    expect(await registry.getSingleMetricAsString('dropped')).toContain('dropped 1');
    expect(lines.map((line) => line.msg)).toEqual(['event log refused facts: buffering and retrying', 'fact buffer full']);
    expect(lines[1].capacity).toBe(3);

    refusing = false;
    // The shutdown flush ignores the backoff.
    await recorder.stop();
    expect(urls(appended)).toEqual(['p2', 'p3', 'p4']);
    expect(recorder.pending()).toBe(0);
  });

  it('at shutdown spills what the log still refuses, and logs as lost what the spill could not take', async () => {
    const refusing = scriptedLog(() => Promise.reject(new Error('log down')));
    const spill = new MemorySpill();
    const kept = recorderWith(refusing, { spill });
    kept.recorder.start();
    for (let n = 1; n <= 3; n += 1) kept.recorder.add(fact(n));
    await kept.recorder.stop();
    expect(urls(spill.written)).toEqual(['p1', 'p2', 'p3']);

    const lines: { msg: string; lost?: number; spillError?: string }[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const lost = recorderWith(refusing, { spill: new MemorySpill(true), logger });
    lost.recorder.start();
    for (let n = 1; n <= 3; n += 1) lost.recorder.add(fact(n));
    await lost.recorder.stop();
    expect(lines).toEqual([expect.objectContaining({ msg: 'event log unreachable at shutdown: facts not recorded', lost: 3, spillError: 'disk full' })]);
  });
});

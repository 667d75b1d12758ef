import { HOST_RECACHE_PAUSED, newQueueEvent, RECACHE_REQUESTED, RecacheRequested, TOPICS } from '@bpc/events';
import { InProcessSignals } from '@bpc/platform';
import { openStandaloneState, StandaloneState, TestClock } from '@bpc/testing';
import { QueueActivity } from '../queue-activity';
import { receiptIdMintedAt } from './receipt-id';
import { RequestRecache } from './request-recache.command';
import { RequestRecacheHandler } from './request-recache.handler';

const T = Date.parse('2026-11-28T02:00:00Z');
const page = (p: string) => `https://www.example.com/${p}`;

describe('RequestRecache', () => {
  let state: StandaloneState;
  let handler: RequestRecacheHandler;
  let hints: number;
  const clock = new TestClock(T);

  beforeEach(async () => {
    // Host 1 (testConfig): www.example.com, dimensions 1 (desktop) and 2 (mobile), `^/admin/` ignored.
    state = await openStandaloneState();
    const activity = new QueueActivity(new InProcessSignals());
    hints = 0;
    activity.onWorkQueued(() => (hints += 1));
    handler = new RequestRecacheHandler(state.hosts, state.log, state.queue, clock, activity);
  });

  afterEach(() => state.close());

  const requests = async () => (await state.recorded(TOPICS.queue)).filter((e): e is RecacheRequested => e.type === RECACHE_REQUESTED);
  const normalTotal = async () => (await state.queue.counts(clock.now(), [1])).get(1)!.normal.total;

  it('records RecacheRequested of the normalised, de-duplicated URLs × every dimension, and answers what the projection queued', async () => {
    const answer = await handler.execute(new RequestRecache({ hostId: 1, urls: [page('a'), 'HTTPS://WWW.EXAMPLE.COM:443/a#top', page('b')], priority: 'normal' }, 'daemon-api'));

    const [event] = await requests();
    expect(event).toMatchObject({ key: '1', occurredAt: new Date(T).toISOString() });
    expect(event.payload).toEqual({ hostId: 1, urls: [page('a'), page('b')], dimensionIds: [1, 2], priority: 'normal', source: 'daemon-api', receiptId: answer.receiptId });
    // urlsCount is what the request carried; entriesEnqueued what the queue now holds for it.
    expect(answer).toEqual({ hostId: 1, urlsCount: 3, dimensionIdsCount: 2, entriesEnqueued: 4, priority: 'normal', paused: false, receiptId: answer.receiptId });
    expect(await normalTotal()).toBe(4);
    expect(hints).toBe(1);
  });

  it('mints a receipt id that tells when it was minted, or keeps the one it is given (a sitemap’s chunks share one)', async () => {
    const minted = await handler.execute(new RequestRecache({ hostId: 1, urls: [page('a')], priority: 'high' }, 'daemon-api'));
    expect(receiptIdMintedAt(minted.receiptId)).toBe(T);

    const given = await handler.execute(new RequestRecache({ hostId: 1, urls: [page('b')], priority: 'normal' }, 'sitemap', minted.receiptId));
    expect(given.receiptId).toBe(minted.receiptId);
    expect((await requests()).map((e) => [e.payload.source, e.payload.receiptId])).toEqual([
      ['daemon-api', minted.receiptId],
      ['sitemap', minted.receiptId],
    ]);
  });

  it('queues only the named dimensions, and says which mode was forced', async () => {
    const answer = await handler.execute(new RequestRecache({ hostId: 1, urls: [page('a')], dimensionIds: [2, 2], priority: 'high', mode: 'bypass' }, 'public-api'));
    expect(answer).toMatchObject({ dimensionIdsCount: 1, entriesEnqueued: 1, mode: 'bypass' });
    expect((await requests())[0].payload).toMatchObject({ dimensionIds: [2], mode: 'bypass', source: 'public-api' });
  });

  it('counts an entry already queued as kept, not twice: repeating a request queues no more work', async () => {
    await handler.execute(new RequestRecache({ hostId: 1, urls: [page('a')], priority: 'normal' }, 'daemon-api'));
    const again = await handler.execute(new RequestRecache({ hostId: 1, urls: [page('a')], priority: 'high' }, 'daemon-api'));
    expect(again.entriesEnqueued).toBe(2);
    const counts = (await state.queue.counts(clock.now(), [1])).get(1)!;
    expect([counts.high.total, counts.normal.total]).toEqual([2, 0]);
  });

  it('skips URLs an ignore rule matches; when none is left it records nothing and queues nothing (its receipt will read 404)', async () => {
    const partly = await handler.execute(new RequestRecache({ hostId: 1, urls: [page('admin/x'), page('a')], priority: 'normal' }, 'daemon-api'));
    expect(partly).toMatchObject({ urlsCount: 2, entriesEnqueued: 2 });
    expect((await requests())[0].payload.urls).toEqual([page('a')]);

    const ignored = await handler.execute(new RequestRecache({ hostId: 1, urls: [page('admin/y')], priority: 'normal' }, 'daemon-api'));
    expect(ignored).toMatchObject({ urlsCount: 1, entriesEnqueued: 0, receiptId: expect.any(String) });
    expect(await requests()).toHaveLength(1);
    expect(hints).toBe(1);
  });

  it('says the host is paused (the work is queued all the same)', async () => {
    await state.given(newQueueEvent(HOST_RECACHE_PAUSED, { hostId: 1, expiresAt: T + 60_000 }, '1', T));
    const answer = await handler.execute(new RequestRecache({ hostId: 1, urls: [page('a')], priority: 'normal' }, 'daemon-api'));
    expect(answer).toMatchObject({ paused: true, entriesEnqueued: 2 });
    clock.advance(60_000);
    expect(await handler.execute(new RequestRecache({ hostId: 1, urls: [page('b')], priority: 'normal' }, 'daemon-api'))).toMatchObject({ paused: false });
  });

  it.each([
    ['an unknown host', { hostId: 9, urls: [page('a')] }, 'host_id'],
    ['a URL of another host', { hostId: 1, urls: [page('a'), 'https://shop.example.org/a'] }, 'urls[1]'],
    ['a relative URL', { hostId: 1, urls: ['/a'] }, 'urls[0]'],
    ['no URL', { hostId: 1, urls: [] }, 'urls'],
    ['a dimension the host does not have', { hostId: 1, urls: [page('a')], dimensionIds: [1, 3] }, 'dimension_ids[1]'],
  ])('refuses %s with VALIDATION_FAILED naming the field, and records nothing', async (_what, input, field) => {
    await expect(handler.execute(new RequestRecache({ ...input, priority: 'normal' }, 'daemon-api'))).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field });
    expect(await requests()).toEqual([]);
  });

  it('refuses URLs larger in all than the log takes as one event with VALIDATION_FAILED naming urls: retrying cannot help', async () => {
    const long = (i: number) => page(`${i}-${'x'.repeat(1_800)}`);
    const urls = Array.from({ length: 10_000 }, (_, i) => long(i));
    await expect(handler.execute(new RequestRecache({ hostId: 1, urls, priority: 'normal' }, 'daemon-api'))).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'urls',
      message: expect.stringMatching(/send them in smaller requests/),
    });
    expect(await requests()).toEqual([]);
  });

  it('refuses with STORE_UNAVAILABLE, recording nothing, when the queue store cannot be read', async () => {
    await state.queue.close();
    await expect(handler.execute(new RequestRecache({ hostId: 1, urls: [page('a')], priority: 'normal' }, 'daemon-api'))).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
      message: expect.stringMatching(/^queue store unavailable, nothing was changed/),
    });
    expect(await requests()).toEqual([]);
    expect(hints).toBe(0);
  });

  it('refuses with LOG_UNAVAILABLE when the event log refuses the append: nothing is queued', async () => {
    await state.closeLog();
    await expect(handler.execute(new RequestRecache({ hostId: 1, urls: [page('a')], priority: 'normal' }, 'daemon-api'))).rejects.toMatchObject({
      code: 'LOG_UNAVAILABLE',
      message: expect.stringMatching(/^event log unavailable, the request was not acknowledged/),
    });
    expect(await requests()).toEqual([]);
    expect(await normalTotal()).toBe(0);
    expect(hints).toBe(0);
  });
});

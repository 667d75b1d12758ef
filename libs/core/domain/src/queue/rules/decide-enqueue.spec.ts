import { decideEnqueue } from './decide-enqueue';
import { entry, given, queued, T } from './queue-rules.fixtures';

describe('decideEnqueue', () => {
  const request = { hostId: 1, priority: 'normal' as const, dueAt: T, entryId: 'e2' };

  it('given an empty queue, when a request names an item twice, then one entry is queued', () => {
    const view = given();
    const decision = decideEnqueue(view, { ...request, items: [{ url: 'u', dimensionId: 1 }, { url: 'u', dimensionId: 1, mode: 'render' }] });
    expect(decision.result).toEqual({ enqueued: 1, created: 1, promoted: 0 });
    expect(decision.events).toEqual([{ type: 'entries-queued', entries: [entry('u', { mode: 'render', entryId: 'e2' })] }]);
  });

  it('given a queued normal entry, when a high request comes later, then it moves up keeping the earlier due time and answers to the new request', () => {
    const view = given(...queued(entry('u', { dueAt: T, attempt: 2 })));
    const decision = decideEnqueue(view, { ...request, priority: 'high', dueAt: T + 5_000, items: [{ url: 'u', dimensionId: 1 }] });
    expect(decision.result).toEqual({ enqueued: 1, created: 0, promoted: 1 });
    expect(decision.events).toEqual([{ type: 'entry-replaced', entry: entry('u', { priority: 'high', dueAt: T, attempt: 2, entryId: 'e2' }) }]);
  });

  it('given a queued high entry, when a normal request comes with an earlier due time, then it stays high and comes forward', () => {
    const view = given(...queued(entry('u', { priority: 'high', dueAt: T + 5_000 })));
    const decision = decideEnqueue(view, { ...request, items: [{ url: 'u', dimensionId: 1 }] });
    expect(decision.result).toEqual({ enqueued: 1, created: 0, promoted: 0 });
    expect(decision.events).toEqual([{ type: 'entry-replaced', entry: entry('u', { priority: 'high', dueAt: T, entryId: 'e2' }) }]);
  });

  it('given a queued entry, when the same request comes again, then nothing changes', () => {
    const view = given(...queued(entry('u', { entryId: 'e2' })));
    expect(decideEnqueue(view, { ...request, items: [{ url: 'u', dimensionId: 1 }] }).events).toEqual([]);
  });
});

describe('decideEnqueue and the sitemap trigger', () => {
  const request = { hostId: 1, priority: 'normal' as const, dueAt: T, entryId: 'e2', items: [{ url: 'u', dimensionId: 1 }] };

  it('given an empty queue, when a sitemap request queues an item, then the entry carries the trigger', () => {
    expect(decideEnqueue(given(), { ...request, trigger: 'sitemap' }).events).toEqual([{ type: 'entries-queued', entries: [entry('u', { entryId: 'e2', trigger: 'sitemap' })] }]);
  });

  it('given an entry queued by a sitemap, when a plain request queues it again, then the trigger goes with the request', () => {
    const view = given(...queued(entry('u', { trigger: 'sitemap' })));
    expect(decideEnqueue(view, request).events).toEqual([{ type: 'entry-replaced', entry: entry('u', { entryId: 'e2' }) }]);
  });

  it('given a plain entry, when a sitemap request queues it again, then it takes the trigger', () => {
    const view = given(...queued(entry('u')));
    expect(decideEnqueue(view, { ...request, trigger: 'sitemap' }).events).toEqual([{ type: 'entry-replaced', entry: entry('u', { entryId: 'e2', trigger: 'sitemap' }) }]);
  });
});

import { decidePause, decidePausedHosts, decidePurge, decideResume, decideSettle } from './decide-host-queue';
import { entry, given, queued, T } from './queue-rules.fixtures';

describe('host queue decisions', () => {
  it('given entries at two priorities, when purging one of them twice over, then only its entries go', () => {
    const view = given(...queued(entry('a'), entry('b'), entry('c', { priority: 'high' })));
    expect(decidePurge(view, 1, ['normal', 'normal'])).toEqual({ events: [{ type: 'queues-purged', hostId: 1, priorities: ['normal'] }], result: 2 });
    expect(decidePurge(view, 1, [])).toEqual({ events: [], result: 0 });
  });

  it('given an entry answering to e2, when settling e1, then it stays; when settling e2, then it goes', () => {
    const view = given(...queued(entry('a', { entryId: 'e2' })));
    expect(decideSettle(view, 1, '1|a', 'e1')).toEqual({ events: [], result: false });
    expect(decideSettle(view, 1, '1|a', 'e2')).toEqual({ events: [{ type: 'entry-removed', hostId: 1, key: '1|a' }], result: true });
  });

  it('given pauses of which one has ended, when asking who is paused, then the ended one is dropped', () => {
    const view = given(decidePause(1, T + 1).events[0], decidePause(2, T).events[0]);
    expect(decidePausedHosts(view, T)).toEqual({ events: [{ type: 'pause-lifted', hostId: 2 }], result: new Map([[1, T + 1]]) });
  });

  it('when resuming, then the pause is lifted', () => {
    expect(decideResume(3).events).toEqual([{ type: 'pause-lifted', hostId: 3 }]);
  });
});

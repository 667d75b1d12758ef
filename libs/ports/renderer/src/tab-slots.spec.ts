import { TabSlots, reservedTabs } from './tab-slots';

describe('TabSlots', () => {
  const never = new AbortController().signal;
  const settled = async <T>(promise: Promise<T>): Promise<boolean> => {
    let done = false;
    void promise.then(
      () => (done = true),
      () => (done = true),
    );
    await new Promise((resolve) => setImmediate(resolve));
    return done;
  };

  it('reserves ceil(tabs × percent / 100) tabs', () => {
    expect(reservedTabs(4, 25)).toBe(1);
    expect(reservedTabs(4, 30)).toBe(2);
    expect(reservedTabs(3, 100 / 3)).toBe(1);
    expect(reservedTabs(2, 50)).toBe(1);
    expect(reservedTabs(5, 0)).toBe(0);
    expect(reservedTabs(2, 100)).toBe(2);
  });

  it('never gives a reserved tab to recache; online takes reserved tabs first, then any', async () => {
    const slots = new TabSlots(3, 34); // 2 reserved, 1 eligible
    expect(slots.capacity()).toEqual({ tabs: 3, freeTabs: 3, reservedForOnline: 2, availableForRecache: 1 });
    const recache = await slots.acquire('recache', never);
    expect(recache).toBe(2);
    const waiting = slots.acquire('recache', never);
    expect(await settled(waiting)).toBe(false);
    expect(slots.capacity()).toEqual({ tabs: 3, freeTabs: 2, reservedForOnline: 2, availableForRecache: 0 });
    expect(await slots.acquire('online', never)).toBe(0);
    expect(await slots.acquire('online', never)).toBe(1);
    slots.release(recache);
    expect(await waiting).toBe(2);
  });

  it('lets online use an eligible tab when the reserved ones are busy', async () => {
    const slots = new TabSlots(2, 50);
    expect(await slots.acquire('online', never)).toBe(0);
    expect(await slots.acquire('online', never)).toBe(1);
    expect(slots.capacity().freeTabs).toBe(0);
  });

  it('serves waiting online renders before waiting recache renders', async () => {
    const slots = new TabSlots(1, 0);
    const held = await slots.acquire('recache', never);
    const order: string[] = [];
    const recache = slots.acquire('recache', never).then((slot) => (order.push('recache'), slot));
    const online = slots.acquire('online', never).then((slot) => (order.push('online'), slot));
    slots.release(held);
    slots.release(await online);
    await recache;
    expect(order).toEqual(['online', 'recache']);
  });

  it('stops waiting when the signal aborts and leaves no waiter behind', async () => {
    const slots = new TabSlots(1, 0);
    const held = await slots.acquire('recache', never);
    const abort = new AbortController();
    const waiting = slots.acquire('recache', abort.signal);
    abort.abort(new Error('deadline'));
    await expect(waiting).rejects.toThrow('deadline');
    slots.release(held);
    expect(slots.capacity().freeTabs).toBe(1);
  });

  it('rejects a bad configuration', () => {
    expect(() => new TabSlots(0, 10)).toThrow(/tabs/);
    expect(() => new TabSlots(2, 101)).toThrow(/reservationPercent/);
  });
});

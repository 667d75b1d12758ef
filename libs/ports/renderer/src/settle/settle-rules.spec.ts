import { busyReason, DEFAULT_SETTLE_RULES, settleRulesOf, settleVerdict, type PageActivity } from './settle-rules';

const rules = { quietMs: 300, longRequestMs: 4000, prerenderReady: true };
const activity = (over: Partial<PageActivity> = {}): PageActivity => ({ loadedAt: 1000, lastActivityAt: 1000, open: [], ...over });

describe('settleVerdict', () => {
  it('is busy until the load event, whatever the network does', () => {
    expect(settleVerdict(activity({ loadedAt: undefined, lastActivityAt: 0 }), 60_000, rules)).toEqual({ kind: 'busy', checkAt: Infinity, holding: [] });
  });

  it('is quiet once neither the load event nor any request happened for quietMs', () => {
    expect(settleVerdict(activity({ lastActivityAt: 1200 }), 1499, rules)).toEqual({ kind: 'busy', checkAt: 1500, holding: [] });
    expect(settleVerdict(activity({ lastActivityAt: 1200 }), 1500, rules)).toEqual({ kind: 'quiet' });
    expect(settleVerdict(activity({ loadedAt: 1400, lastActivityAt: 1200 }), 1500, rules)).toEqual({ kind: 'busy', checkAt: 1700, holding: [] });
  });

  it('is held by an open request until it has been open longRequestMs, then quiet quietMs later', () => {
    const open = [{ url: 'https://a.test/poll', startedAt: 1100 }];
    expect(settleVerdict(activity({ lastActivityAt: 1100, open }), 3000, rules)).toEqual({ kind: 'busy', checkAt: 5100, holding: open });
    expect(settleVerdict(activity({ lastActivityAt: 1100, open }), 5100, rules)).toEqual({ kind: 'busy', checkAt: 5400, holding: [] });
    expect(settleVerdict(activity({ lastActivityAt: 1100, open }), 5400, rules)).toEqual({ kind: 'quiet' });
  });

  it('looks again when the first of several open requests stops holding the page', () => {
    const open = [
      { url: 'https://a.test/1', startedAt: 1000 },
      { url: 'https://a.test/2', startedAt: 2000 },
    ];
    expect(settleVerdict(activity({ lastActivityAt: 2000, open }), 2500, rules)).toMatchObject({ kind: 'busy', checkAt: 5000 });
  });
});

describe('busyReason', () => {
  it('says what kept the page from being done', () => {
    expect(busyReason(activity({ loadedAt: undefined }), 5000, rules, 'network')).toBe('the page never finished loading (no load event)');
    expect(busyReason(activity({ open: [{ url: 'https://a.test/x', startedAt: 4000 }] }), 5000, rules, 'network')).toBe('the page kept loading (1 request open, e.g. https://a.test/x)');
    expect(busyReason(activity({ lastActivityAt: 4900 }), 5000, rules, 'network')).toBe('the page kept making requests');
    expect(busyReason(activity(), 5000, rules, 'main-thread')).toBe("the page's scripts kept its main thread busy");
    expect(busyReason(activity(), 5000, rules, 'prerender-ready')).toBe('the page kept window.prerenderReady false');
  });
});

describe('settleRulesOf', () => {
  it("takes the host's render settings, or the defaults", () => {
    expect(settleRulesOf({})).toBe(DEFAULT_SETTLE_RULES);
    expect(settleRulesOf({ render: { quiet_ms: 100, long_request_ms: 2000, prerender_ready: false } })).toEqual({ quietMs: 100, longRequestMs: 2000, prerenderReady: false });
  });
});

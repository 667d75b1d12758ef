import { alignedWindow, decideCriticalPagesUpAlert, decideExportFinishedAlert, decideNoindexAppearedAlert, decidePageErrorAlerts, decideRenderFailureAlert, MAX_PAGE_ALERTS, PageRequestFigures } from './alert-rules';

const T = Date.parse('2026-11-28T10:07:30.000Z');
const minutes = (n: number) => n * 60_000;

describe('alert rules', () => {
  describe('render failures over a window', () => {
    const rule = { threshold: 5, windowMinutes: 15 };

    it('fire when the failures reach the threshold, not below', () => {
      expect(decideRenderFailureAlert('demo', rule, { failures: 4, topReasons: [] }, T)).toBeUndefined();
      const alert = decideRenderFailureAlert('demo', rule, { failures: 5, topReasons: [{ reason: 'timeout', renders: 5 }] }, T);
      expect(alert).toEqual({
        id: 'render_failures:demo:2026-11-28T10:00:00.000Z',
        type: 'render_failures',
        website: 'demo',
        occurredAt: '2026-11-28T10:07:30.000Z',
        data: { failures: 5, threshold: 5, windowMinutes: 15, from: '2026-11-28T09:52:30.000Z', to: '2026-11-28T10:07:30.000Z', topReasons: [{ reason: 'timeout', renders: 5 }] },
      });
    });

    it('name the same alert at every evaluation of one aligned window, another in the next', () => {
      const figures = { failures: 9, topReasons: [] };
      const ids = [T, T + minutes(7), T + minutes(8)].map((now) => decideRenderFailureAlert('demo', rule, figures, now)!.id);
      expect(ids).toEqual(['render_failures:demo:2026-11-28T10:00:00.000Z', 'render_failures:demo:2026-11-28T10:00:00.000Z', 'render_failures:demo:2026-11-28T10:15:00.000Z']);
    });

    it('align windows on the clock', () => {
      expect(alignedWindow(T, 60)).toEqual({ start: Date.parse('2026-11-28T10:00:00.000Z'), end: Date.parse('2026-11-28T11:00:00.000Z') });
    });
  });

  describe('a page bots request often turning to errors', () => {
    const rule = { minRequests: 10, windowMinutes: 60 };
    const page = (over: Partial<PageRequestFigures>): PageRequestFigures => ({ url: 'https://www.example.com/a', beforeRequests: 10, beforeErrors: 0, recentRequests: 3, recentErrors: 2, lastStatus: 404, ...over });

    it('fires for a page requested at least minRequests times before, now answering 4xx/5xx', () => {
      const [alert] = decidePageErrorAlerts('demo', rule, [page({})], T);
      expect(alert).toMatchObject({ type: 'page_errors', website: 'demo', data: { url: 'https://www.example.com/a', status: 404, requestsBefore: 10, requests: 3, errors: 2, otherPages: 0 } });
      expect(alert.id).toMatch(/^page_errors:demo:[0-9a-f]{16}:2026-11-28T10:00:00.000Z$/);
    });

    it('stays quiet for a rarely requested page, one that already failed before, or one whose last answer is good again', () => {
      expect(decidePageErrorAlerts('demo', rule, [page({ beforeRequests: 9 }), page({ beforeErrors: 5 }), page({ lastStatus: 200 }), page({ recentErrors: 0 })], T)).toEqual([]);
    });

    it('one alert per page, the most requested first, at most MAX_PAGE_ALERTS, saying how many more', () => {
      const pages = Array.from({ length: MAX_PAGE_ALERTS + 3 }, (_, i) => page({ url: `https://www.example.com/${i}`, beforeRequests: 10 + i }));
      const alerts = decidePageErrorAlerts('demo', rule, pages, T);
      expect(alerts).toHaveLength(MAX_PAGE_ALERTS);
      expect(alerts[0].data).toMatchObject({ url: `https://www.example.com/${MAX_PAGE_ALERTS + 2}`, otherPages: 3 });
      expect(new Set(alerts.map((a) => a.id)).size).toBe(MAX_PAGE_ALERTS);
    });
  });

  it('an export finished: one alert per export, whatever the reading', () => {
    const finished = { exportId: 42, website: 'demo', explorerKey: 'events', filename: 'june', status: 'completed' as const, finishedAt: '2026-11-28T10:00:00.000Z', rowCount: 3, sizeBytes: 120 };
    expect(decideExportFinishedAlert(finished)).toEqual({
      id: 'export_finished:demo:42',
      type: 'export_finished',
      website: 'demo',
      occurredAt: '2026-11-28T10:00:00.000Z',
      data: { exportId: 42, explorer: 'events', filename: 'june', status: 'completed', rowCount: 3, sizeBytes: 120 },
    });
    expect(decideExportFinishedAlert({ ...finished, status: 'failed', rowCount: undefined, sizeBytes: undefined, error: 'query timed out' }).data).toEqual({ exportId: 42, explorer: 'events', filename: 'june', status: 'failed', error: 'query timed out' });
  });

  describe('noindex appearing on many pages within a window', () => {
    const rule = { minPages: 3, windowMinutes: 60 };

    it('fires at min_pages, not below, once per aligned window, naming a few pages', () => {
      expect(decideNoindexAppearedAlert('demo', rule, { pages: 2, examples: ['https://www.example.com/a', 'https://www.example.com/b'] }, T)).toBeUndefined();
      const figures = { pages: 3, examples: ['https://www.example.com/a', 'https://www.example.com/b', 'https://www.example.com/c'] };
      expect(decideNoindexAppearedAlert('demo', rule, figures, T)).toEqual({
        id: 'noindex_appeared:demo:2026-11-28T10:00:00.000Z',
        type: 'noindex_appeared',
        website: 'demo',
        occurredAt: '2026-11-28T10:07:30.000Z',
        data: { pages: 3, minPages: 3, windowMinutes: 60, from: '2026-11-28T09:07:30.000Z', to: '2026-11-28T10:07:30.000Z', examples: figures.examples },
      });
      expect(decideNoindexAppearedAlert('demo', rule, figures, T + minutes(50))!.id).toBe('noindex_appeared:demo:2026-11-28T10:00:00.000Z');
      expect(decideNoindexAppearedAlert('demo', rule, figures, T + minutes(53))!.id).toBe('noindex_appeared:demo:2026-11-28T11:00:00.000Z');
    });
  });

  describe('pages with critical issues up day over day', () => {
    const rule = { increasePercent: 50, minPages: 10 };
    const NOW = Date.UTC(2026, 11, 7, 9, 30);
    const figures = (today: number, yesterday: number) => ({ today, yesterday, renderedToday: 400, renderedYesterday: 380, examples: ['https://www.example.com/a'] });

    it('fires when today is at least the percentage above yesterday and at least min_pages, once a day', () => {
      expect(decideCriticalPagesUpAlert('demo', rule, figures(29, 20), NOW)).toBeUndefined();
      expect(decideCriticalPagesUpAlert('demo', rule, figures(30, 20), NOW)).toEqual({
        id: 'critical_pages_up:demo:2026-12-07',
        type: 'critical_pages_up',
        website: 'demo',
        occurredAt: new Date(NOW).toISOString(),
        data: { day: '2026-12-07', pages: 30, yesterday: 20, increasePercent: 50, renderedToday: 400, renderedYesterday: 380, minIncreasePercent: 50, minPages: 10, examples: ['https://www.example.com/a'] },
      });
      expect(decideCriticalPagesUpAlert('demo', rule, figures(60, 20), NOW + 14 * 3_600_000)!.id).toBe('critical_pages_up:demo:2026-12-07');
      expect(decideCriticalPagesUpAlert('demo', rule, figures(60, 20), NOW + 15 * 3_600_000)!.id).toBe('critical_pages_up:demo:2026-12-08');
    });

    it('needs min_pages: a rise from none is any rise, a rise of a few pages is none', () => {
      expect(decideCriticalPagesUpAlert('demo', rule, figures(9, 0), NOW)).toBeUndefined();
      expect(decideCriticalPagesUpAlert('demo', rule, figures(10, 0), NOW)!.data).toMatchObject({ pages: 10, yesterday: 0, increasePercent: null });
    });
  });
});

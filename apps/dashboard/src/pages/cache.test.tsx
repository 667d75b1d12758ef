// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { envelope, renderPage, serveApi, type Call } from '../test-support';
import CachePage from './cache';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const queue = {
  hostId: 1,
  queues: { high: { total: 0, due: 0 }, normal: { total: 120, due: 40 } },
  paused: false,
  pausedUntil: null,
  drainEstimate: { high: { seconds: null, completedPerMinute: 0 }, normal: { seconds: 600, completedPerMinute: 12 } },
};
const route = [{ path: '/w/:website/cache', element: <CachePage /> }];
const entryRow = (url: string, dimension = 'desktop') => ({
  url,
  dimensionId: dimension === 'desktop' ? 1 : 2,
  dimension,
  kind: 'render',
  status: 'fresh',
  statusCode: 200,
  renderedAt: '2026-11-27T10:00:00.000Z',
  expiresAt: '2026-11-28T10:00:00.000Z',
  bytes: 20480,
  renderMs: 850,
});

describe('CachePage', () => {
  it('shows each queue with its drain estimate, worded as one; a readonly user searches and looks up but gets no recache or invalidate controls', async () => {
    const calls = serveApi('readonly', (call) => {
      if (call.path === '/api/websites/demo/cache/queue') return { body: queue };
      if (call.path === '/api/websites/demo/cache/entries/query')
        return { body: { data: [entryRow('https://www.example.com/blog/a'), entryRow('https://www.example.com/blog/a', 'mobile')], meta: { page: 1, perPage: 50, total: 2, totalPages: 1 } } };
      if (call.path.startsWith('/api/websites/demo/cache/entries?'))
        return {
          body: {
            url: 'https://www.example.com/blog/a',
            entries: [
              { ...entryRow('x'), cached: true, lastServedAt: '2026-11-27T11:00:00.000Z', hits: 7 },
              { dimensionId: 2, dimension: 'mobile', cached: false, lastServedAt: null, hits: 0 },
            ],
          },
        };
      return undefined;
    });
    renderPage(route, '/w/demo/cache');
    expect(await screen.findByTestId('queue-normal-drain')).toHaveProperty('textContent', 'about 10 min');
    expect(screen.getByTestId('queue-high-drain').textContent).toBe('nothing waiting');
    expect(screen.getByText(/Drain estimates are estimates/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Recache' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Count matching/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Recache sitemap' })).toBeNull();

    fireEvent.change(screen.getByLabelText('URL prefix'), { target: { value: 'https://www.example.com/blog/' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect((await screen.findByTestId('entries-total')).textContent).toBe('2');
    expect(calls.find((c) => c.path.endsWith('/cache/entries/query'))!.body).toEqual({ prefix: 'https://www.example.com/blog/', page: 1, perPage: 50 });
    expect(screen.queryByRole('button', { name: 'Invalidate these…' })).toBeNull();

    fireEvent.click(screen.getAllByRole('button', { name: 'https://www.example.com/blog/a' })[0]!);
    const lookup = await screen.findByRole('table', { name: /Cache entries of https:\/\/www.example.com\/blog\/a, per dimension/ });
    expect(document.activeElement).toBe(screen.getByLabelText('Page URL'));
    expect(calls.some((c) => c.path === '/api/websites/demo/cache/entries?url=https%3A%2F%2Fwww.example.com%2Fblog%2Fa')).toBe(true);
    const rows = within(lookup).getAllByRole('row');
    expect(rows[1]!.textContent).toContain('yes (render)');
    expect(rows[1]!.textContent).toContain('7');
    expect(rows[2]!.textContent).toContain('not since rendered');
  });

  it('opens the lookup of the URL in ?lookup= (the Renders page links there), with a link to its render history', async () => {
    const calls = serveApi('readonly', (call) => {
      if (call.path === '/api/websites/demo/cache/queue') return { body: queue };
      if (call.path.startsWith('/api/websites/demo/cache/entries?'))
        return { body: { url: 'https://www.example.com/x', entries: [{ ...entryRow('https://www.example.com/x'), cached: true, lastServedAt: null, hits: 0 }] } };
      return undefined;
    });
    renderPage(route, '/w/demo/cache?lookup=https%3A%2F%2Fwww.example.com%2Fx');
    expect(await screen.findByText(/cached in 1 of 1 dimensions/)).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/websites/demo/cache/entries?url=https%3A%2F%2Fwww.example.com%2Fx')).toBe(true);
    expect(screen.getByRole('link', { name: 'Render history' }).getAttribute('href')).toBe('/w/demo/renders?period=24h&url=https%3A%2F%2Fwww.example.com%2Fx&show=all');
    expect(screen.getByRole('link', { name: 'SEO health' }).getAttribute('href')).toBe('/w/demo/seo/page?url=https%3A%2F%2Fwww.example.com%2Fx');
  });

  it('shows a pattern refusal at the pattern input', async () => {
    serveApi('readonly', (call) => {
      if (call.path.endsWith('/cache/queue')) return { body: queue };
      if (call.path.endsWith('/cache/entries/query')) return envelope(400, 'VALIDATION_FAILED', 'pattern is not a valid RE2 expression: missing )', 'pattern');
      return undefined;
    });
    renderPage(route, '/w/demo/cache');
    const search = (await screen.findByRole('heading', { name: 'Search cache entries' })).closest('section')!;
    fireEvent.click(within(search).getByLabelText(/^Pattern/));
    fireEvent.change(within(search).getByLabelText('RE2 pattern'), { target: { value: '(' } });
    fireEvent.click(within(search).getByRole('button', { name: 'Search' }));
    expect((await within(search).findByRole('alert')).textContent).toContain('not a valid RE2');
    expect(within(search).getByLabelText('RE2 pattern').getAttribute('aria-invalid')).toBe('true');
  });

  it('invalidates matching entries only after a dry run shows the count, with exactly the matcher counted', async () => {
    const calls = serveApi('manager', (call) => {
      if (call.path.endsWith('/cache/queue')) return { body: queue };
      if (call.path.endsWith('/cache/entries/invalidate')) {
        const dry = (call.body as { dryRun: boolean }).dryRun;
        return { body: { dryRun: dry, entriesMatched: 6, urlsMatched: 3, entriesInvalidated: dry ? 0 : 6 } };
      }
      return undefined;
    });
    renderPage(route, '/w/demo/cache');
    const section = (await screen.findByRole('heading', { name: 'Invalidate matching entries' })).closest('section')!;
    fireEvent.change(within(section).getByLabelText('URL prefix'), { target: { value: 'https://www.example.com/old/' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Count matching entries (dry run)' }));
    expect((await within(section).findByTestId('dry-run-count')).textContent).toContain('6 cache entries of 3 URLs match');
    expect(calls.filter((c) => c.path.endsWith('/invalidate')).map((c) => c.body)).toEqual([{ prefix: 'https://www.example.com/old/', dryRun: true }]);
    fireEvent.click(within(section).getByRole('button', { name: 'Invalidate 6 entries' }));
    await within(section).findByText(/6 cache entries invalidated/);
    expect(calls.filter((c) => c.path.endsWith('/invalidate')).map((c) => c.body)).toEqual([
      { prefix: 'https://www.example.com/old/', dryRun: true },
      { prefix: 'https://www.example.com/old/', dryRun: false },
    ]);
    // A new matcher needs a new count: no confirm button meanwhile.
    fireEvent.change(within(section).getByLabelText('URL prefix'), { target: { value: 'https://www.example.com/x/' } });
    expect(within(section).queryByRole('button', { name: /^Invalidate \d/ })).toBeNull();
  });

  it('follows a recache receipt every 2 s until it is done, waiting while it is not readable yet', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let reads = 0;
    const receipt = (done: boolean) => ({
      receiptId: 'r-1',
      createdAt: '2026-11-27T10:00:00.000Z',
      source: 'api',
      done,
      totals: done ? { entries: 2, queued: 0, rendering: 0, stored: 1, kept: 0, failed: 1 } : { entries: 2, queued: 1, rendering: 1, stored: 0, kept: 0, failed: 0 },
      data: [
        { url: 'https://www.example.com/a', dimensionId: 1, dimension: 'desktop', state: done ? 'stored' : 'rendering' },
        { url: 'https://www.example.com/b', dimensionId: 1, dimension: 'desktop', state: done ? 'failed' : 'queued', ...(done ? { outcome: 'gave_up', reason: 'origin answered 503', attempt: 3 } : {}) },
      ],
      meta: { page: 1, perPage: 50, total: 2, totalPages: 1 },
    });
    const calls = serveApi('manager', (call: Call) => {
      if (call.path.endsWith('/cache/queue')) return { body: queue };
      if (call.path.endsWith('/cache/recache')) return { body: { urlsAccepted: 2, entriesEnqueued: 2, receiptId: 'r-1' } };
      if (call.path.startsWith('/api/websites/demo/cache/receipts/r-1')) {
        // The receipt is a read model: the first read may come before it has the request.
        if (++reads === 1) return envelope(404, 'RECEIPT_NOT_FOUND', 'no such receipt');
        return { body: receipt(reads >= 3) };
      }
      return undefined;
    });
    const router = renderPage(route, '/w/demo/cache');
    const recache = (await screen.findByRole('heading', { name: 'Recache pages' })).closest('section')!;
    fireEvent.change(within(recache).getByLabelText('URLs'), { target: { value: 'https://www.example.com/a\nhttps://www.example.com/b' } });
    fireEvent.click(within(recache).getByRole('button', { name: 'Recache' }));
    await screen.findByText('The recache is recorded; its receipt is on its way…');
    await vi.advanceTimersByTimeAsync(2000);
    expect((await screen.findByTestId('receipt-totals')).textContent).toContain('In progress. 0 of 2 entries done');
    expect(router.state.location.search).toBe('?receipt=r-1');
    await vi.advanceTimersByTimeAsync(2000);
    await waitFor(() => expect(screen.getByTestId('receipt-totals').textContent).toContain('Done. 2 of 2 entries done: 1 stored, 0 kept the old page, 1 failed'));
    expect(screen.getByText('origin answered 503')).toBeTruthy();
    // The outcome in the Renders page's words, not the API value.
    expect(screen.getByText('failed, gave up').getAttribute('title')).toBe('gave_up');
    expect(screen.getByRole('link', { name: 'Render history' }).getAttribute('href')).toBe('/w/demo/renders?period=24h&url=https%3A%2F%2Fwww.example.com%2Fb&show=all');
    await vi.advanceTimersByTimeAsync(6000);
    // Done: no more reads.
    expect(calls.filter((c) => c.path.includes('/receipts/')).length).toBe(3);
    expect(calls.find((c) => c.path.includes('/receipts/'))!.path).toBe('/api/websites/demo/cache/receipts/r-1?page=1&perPage=50');
  });

  it('recaches a sitemap, shows what was taken and skipped, and puts a refusal at the sitemap URL', async () => {
    let refuse = true;
    serveApi('manager', (call) => {
      if (call.path.endsWith('/cache/queue')) return { body: queue };
      if (call.path.endsWith('/cache/recache-sitemap')) {
        if (refuse) return envelope(400, 'VALIDATION_FAILED', 'sitemapUrl redirects to another host', 'sitemapUrl');
        return { body: { receiptId: 's-1', sitemapsRead: 2, urlsFound: 10, urlsAccepted: 7, entriesEnqueued: 14, skipped: { offHost: 1, invalid: 1, overCap: 0, notModified: 1, duplicate: 2 } } };
      }
      if (call.path.includes('/cache/receipts/s-1'))
        return { body: { receiptId: 's-1', createdAt: '2026-11-27T10:00:00.000Z', source: 'sitemap', done: false, totals: { entries: 14, queued: 14, rendering: 0, stored: 0, kept: 0, failed: 0 }, data: [], meta: { page: 1, perPage: 50, total: 0, totalPages: 0 } } };
      return undefined;
    });
    renderPage(route, '/w/demo/cache');
    fireEvent.change(await screen.findByLabelText('Sitemap URL'), { target: { value: 'https://www.example.com/sitemap.xml' } });
    fireEvent.click(screen.getByRole('button', { name: 'Recache sitemap' }));
    await waitFor(() => expect(screen.getByLabelText('Sitemap URL').getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('sitemapUrl redirects to another host')).toBeTruthy();
    refuse = false;
    fireEvent.change(screen.getByLabelText('Only pages modified after (optional)'), { target: { value: '2026-11-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Recache sitemap' }));
    expect((await screen.findByTestId('sitemap-counts')).textContent).toContain('2 sitemaps read, 10 URLs found: 7 taken, 14 cache entries queued');
    expect(screen.getByTestId('sitemap-counts').textContent).toContain('1 on other hosts, 1 invalid, 0 over the cap, 1 not modified since the day given, 2 listed twice');
    expect((await screen.findByTestId('receipt-totals')).textContent).toContain('0 of 14 entries done');
  });
});

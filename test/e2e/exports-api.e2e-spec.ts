import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '@bpc/config';
import { envelope, EXPORT_STARTED, TOPICS } from '@bpc/events';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { insertBulkBotRequests, jsonOf, TestClock, testConfig } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { botRequest, issueToken, recordAndWait } from './explorer-fixtures';

const BULK_ROWS = 400_000;

/** Rows whose text a spreadsheet would run, or that need RFC 4180 quoting. */
const TRICKY_BOTS = ['=cmd|"/C calc"!A0', '+1', '-2', '@SUM(1)', '\tTab', 'normal, "quoted"\nbot', 'Bingbot é'];

describe('Data Explorer CSV exports', () => {
  let config: AppConfig;
  let clock: TestClock;
  let running: RunningApps;
  let api: string;
  let ann: string;
  let bob: string;

  const start = async () => {
    running = await startApps(standaloneApps, config, createLogger('silent', 'exports'), clock);
    api = running.urls['public-api']!;
  };
  const headers = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
  const exportCall = (token: string, website: string, body: Record<string, unknown>, explorer = 'events') =>
    fetch(`${api}/api/websites/${website}/data-explorer/${explorer}/export`, { method: 'POST', headers: headers(token), body: JSON.stringify(body) });
  const status = (token: string, website: string, id: number | string) => fetch(`${api}/api/websites/${website}/data-explorer/export/${id}/status`, { headers: headers(token) });
  async function until(token: string, website: string, id: number, wanted = 'completed') {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const record = await jsonOf(await status(token, website, id));
      if (record.status === wanted) return record;
      if (record.status !== 'running' || Date.now() > deadline) throw new Error(`export ${id}: ${JSON.stringify(record)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  /** The signed link, sent to this process (a link minted before a restart names the port the public API listened on then). */
  const download = (url: string) => fetch(url.replace(/^https?:\/\/[^/]+/, api));

  beforeAll(async () => {
    clock = new TestClock(Date.now());
    config = testConfig('standalone', {
      scheduler: { enabled: false },
      websites: [
        { id: 'demo', host_id: 1, account_id: 'acme' },
        { id: 'small', host_id: 1, account_id: 'starter' },
      ],
      accounts: [{ id: 'starter', limits: { export_row_cap: 1000 } }],
      exports: { retention_hours: 24, link_ttl_seconds: 600 },
    });
    await start();
    ann = (await issueToken(api, { user: 'ann', website: 'small', role: 'readonly' })).token;
    await issueToken(api, { user: 'ann', website: 'demo', role: 'readonly' });
    bob = (await issueToken(api, { user: 'bob', website: 'demo', role: 'readonly' })).token;
    await issueToken(api, { user: 'bob', website: 'small', role: 'readonly' });
    const base = clock.now() - 3_600_000;
    await recordAndWait(
      running,
      TRICKY_BOTS.map((botName, i) => botRequest('small', new Date(base + i * 1000), { botName, serveTimeMs: i + 1 })),
      'small',
      TRICKY_BOTS.length,
    );
    // Enough rows that an export of them is still running while racing calls arrive.
    await insertBulkBotRequests(running.runtime.ports.explorerStore!, 'demo', BULK_ROWS, clock.now() - 60_000);
  });
  afterAll(() => running?.close());

  describe('rejections, each with its code and field', () => {
    it.each([
      [{ maxRows: 1001 }, 'maxRows'],
      [{ maxRows: 0 }, 'maxRows'],
      [{ maxRows: 10.5 }, 'maxRows'],
      [{ waitSeconds: 31 }, 'waitSeconds'],
      [{ waitSeconds: -1 }, 'waitSeconds'],
      [{ filename: 'x'.repeat(201) }, 'filename'],
      [{ filename: 7 }, 'filename'],
      [{ page: 1 }, 'page'],
      [{ perPage: 10 }, 'perPage'],
      [{ nope: true }, 'nope'],
      [{ columns: [] }, 'columns'],
      [{ columns: ['_title'] }, 'columns[0]'],
      [{ columns: ['page', 'nope'] }, 'columns[1]'],
      [{ sortDir: 'up' }, 'sortDir'],
      [{ filters: [{ field: 'period', val: '7d' }] }, 'filters[0].field'],
      [{ period: '400d' }, 'period'],
      [{ compPeriod: '7d' }, 'compPeriod'],
    ])('%j → 400 VALIDATION_FAILED on %s', async (body, field) => {
      const response = await exportCall(ann, 'small', body);
      expect(response.status).toBe(400);
      expect(await jsonOf(response)).toMatchObject({ code: 'VALIDATION_FAILED', field });
    });

    it('refuses a sub-day preset on a whole-day explorer, a foreign mode, an unknown explorer, and no token', async () => {
      expect(await jsonOf(await exportCall(ann, 'small', { period: '24h' }, 'search-pages'))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'period' });
      expect(await jsonOf(await exportCall(ann, 'small', { mode: 'requests' }, 'search-pages'))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'mode' });
      const unknown = await exportCall(ann, 'small', {}, 'nope');
      expect(unknown.status).toBe(404);
      const anonymous = await fetch(`${api}/api/websites/small/data-explorer/events/export`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"page":1}' });
      expect(anonymous.status).toBe(401);
    });
  });

  describe('a completed export', () => {
    let record: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    const body = { columns: ['bot_name', 'serve_time', 'event_date_time'], sort: 'serve_time', sortDir: 'asc', period: '7d', filename: 'bots/../"report"', waitSeconds: 20 };

    beforeAll(async () => {
      const response = await exportCall(ann, 'small', body);
      expect(response.status).toBe(200);
      record = await jsonOf(response);
    });

    it('reports every field of the specification', () => {
      const today = new Date(clock.now()).toISOString().slice(0, 10);
      const weekAgo = new Date(clock.now() - 7 * 86_400_000).toISOString().slice(0, 10);
      expect(record).toEqual({
        status: 'completed',
        exportId: expect.any(Number),
        rowCount: TRICKY_BOTS.length,
        sizeBytes: expect.any(Number),
        columns: ['bot_name', 'serve_time', 'event_date_time'],
        maxRows: 1000,
        filename: 'bots_..__report_.csv',
        window: { start: weekAgo, end: today },
        downloadUrl: expect.stringMatching(/\/exports\/download\/\d+\?expires=\d+&sig=[0-9a-f]{64}$/),
        expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000\+00:00$/),
        startedFrom: 'api',
        createdAt: new Date(clock.now()).toISOString().replace(/Z$/, '+00:00'),
      });
      expect(Number.isInteger(record.exportId)).toBe(true);
    });

    it('downloads an RFC 4180 UTF-8 CSV, header first, requested columns in order, formulas neutralised', async () => {
      const response = await download(record.downloadUrl);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toBe(`attachment; filename="bots_..__report_.csv"; filename*=UTF-8''bots_..__report_.csv`);
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const text = Buffer.from(await response.arrayBuffer()).toString('utf8');
      expect(Buffer.byteLength(text)).toBe(record.sizeBytes);
      const iso = (i: number) => new Date(clock.now() - 3_600_000 + i * 1000).toISOString();
      expect(text).toBe(
        [
          '"bot_name","serve_time","event_date_time"',
          `"'=cmd|""/C calc""!A0",1,"${iso(0)}"`,
          `"'+1",2,"${iso(1)}"`,
          `"'-2",3,"${iso(2)}"`,
          `"'@SUM(1)",4,"${iso(3)}"`,
          `"'\tTab",5,"${iso(4)}"`,
          `"normal, ""quoted""\nbot",6,"${iso(5)}"`,
          `"Bingbot é",7,"${iso(6)}"`,
          '',
        ].join('\r\n'),
      );
    });

    it('answers 503 STORE_UNAVAILABLE (never a 500) while the file store fails, and serves the file again once it is back', async () => {
      // The store's directory replaced by a file: every read of the store fails (ENOTDIR), as a lost volume would.
      const exportsDir = path.join(config.data_dir, 'exports');
      renameSync(exportsDir, `${exportsDir}.away`);
      writeFileSync(exportsDir, '');
      try {
        const response = await download(record.downloadUrl);
        expect(response.status).toBe(503);
        const answer = await jsonOf(response);
        expect(answer).toEqual({ code: 'STORE_UNAVAILABLE', message: expect.stringMatching(/export file store/) });
        expect(answer.message).not.toContain(config.data_dir);
      } finally {
        rmSync(exportsDir);
        renameSync(`${exportsDir}.away`, exportsDir);
      }
      expect((await download(record.downloadUrl)).status).toBe(200);
    });

    it('answers 410 DOWNLOAD_LINK_EXPIRED for a genuine link whose file was removed', async () => {
      const other = await jsonOf(await exportCall(ann, 'small', { ...body, maxRows: 2 }));
      expect(other).toMatchObject({ status: 'completed', rowCount: 2 });
      expect((await download(other.downloadUrl)).status).toBe(200);
      await running.runtime.ports.objectStore!.remove([`exports/${other.exportId}.csv`]);
      const response = await download(other.downloadUrl);
      expect(response.status).toBe(410);
      expect(await jsonOf(response)).toMatchObject({ code: 'DOWNLOAD_LINK_EXPIRED' });
    });

    it('rejoins the same export when the same body (or the same question) comes again', async () => {
      const again = await jsonOf(await exportCall(ann, 'small', body));
      expect(again.exportId).toBe(record.exportId);
      // Key order, explicit defaults and waitSeconds do not change the question.
      const reordered = { waitSeconds: 0, filename: body.filename, period: '7d', sortDir: 'asc', sort: 'serve_time', columns: body.columns, mode: 'requests' };
      expect((await jsonOf(await exportCall(ann, 'small', reordered))).exportId).toBe(record.exportId);
      // maxRows changes the question.
      const other = await jsonOf(await exportCall(ann, 'small', { ...body, maxRows: 3 }));
      expect(other.exportId).not.toBe(record.exportId);
      expect(other).toMatchObject({ status: 'completed', rowCount: 3, maxRows: 3 });
      // The default compPeriod (the window before a rolling period) moves with the clock; the question does not.
      const comparison = { mode: 'comparison', period: '7d', filename: 'comparison' };
      const first = await jsonOf(await exportCall(ann, 'small', comparison));
      expect(first.status).toBe('completed');
      clock.advance(1);
      expect((await jsonOf(await exportCall(ann, 'small', comparison))).exportId).toBe(first.exportId);
    });

    it('mints a fresh link on every status read; another user and another website get 404 EXPORT_NOT_FOUND', async () => {
      const read = await status(ann, 'small', record.exportId);
      expect(read.status).toBe(200);
      expect(await jsonOf(read)).toMatchObject({ status: 'completed', exportId: record.exportId, rowCount: TRICKY_BOTS.length });
      for (const [token, website, id] of [[bob, 'small', record.exportId], [ann, 'demo', record.exportId], [ann, 'small', 999_999], [ann, 'small', 'abc']] as const) {
        const refused = await status(token, website, id);
        expect(refused.status).toBe(404);
        expect(await jsonOf(refused)).toMatchObject({ code: 'EXPORT_NOT_FOUND' });
      }
    });

    it('refuses tampered links (403) and a link for one file never opens another', async () => {
      const other = await jsonOf(await exportCall(ann, 'small', { ...body, maxRows: 3 }));
      const url = new URL(record.downloadUrl);
      const swapped = record.downloadUrl.replace(`/download/${record.exportId}?`, `/download/${other.exportId}?`);
      const badSig = record.downloadUrl.replace(/sig=([0-9a-f])/, (_: string, c: string) => `sig=${c === '0' ? '1' : '0'}`);
      const laterExpiry = record.downloadUrl.replace(/expires=(\d+)/, (_: string, e: string) => `expires=${Number(e) + 1}`);
      for (const link of [swapped, badSig, laterExpiry, `${url.origin}${url.pathname}`]) {
        const response = await download(link);
        expect(response.status).toBe(403);
        expect(await jsonOf(response)).toMatchObject({ code: 'DOWNLOAD_LINK_INVALID' });
      }
    });

    it('refuses an expired link with 410 and a fresh read works again', async () => {
      const link = record.downloadUrl;
      clock.advance(601_000);
      try {
        const response = await download(link);
        expect(response.status).toBe(410);
        expect(await jsonOf(response)).toMatchObject({ code: 'DOWNLOAD_LINK_EXPIRED' });
        const fresh = await jsonOf(await status(ann, 'small', record.exportId));
        expect((await download(fresh.downloadUrl)).status).toBe(200);
      } finally {
        clock.advance(-601_000);
      }
    });
  });

  describe('the account slot', () => {
    it('two clients racing with different bodies: exactly one runs, the others get 409 naming it', async () => {
      const bodies = [1, 2, 3, 4].map((i) => ({ filename: `race-${i}`, waitSeconds: 0 }));
      const responses = await Promise.all(bodies.map((b) => exportCall(bob, 'demo', b)));
      const answers = await Promise.all(responses.map(async (r) => ({ status: r.status, body: await jsonOf(r) })));
      const winners = answers.filter((a) => a.status === 200);
      expect(winners).toHaveLength(1);
      expect(winners[0].body).toEqual({ status: 'running', exportId: expect.any(Number), message: expect.stringContaining('status'), startedFrom: 'api', createdAt: expect.any(String) });
      for (const loser of answers.filter((a) => a.status !== 200)) {
        expect(loser).toEqual({ status: 409, body: { code: 'EXPORT_SLOT_BUSY', message: expect.any(String), exportId: winners[0].body.exportId } });
      }
      // Another user of the same account is refused too (one slot per account).
      const other = await exportCall(ann, 'demo', { filename: 'other-user', waitSeconds: 0 });
      expect(other.status).toBe(409);
      expect(await jsonOf(other)).toMatchObject({ exportId: winners[0].body.exportId });
      const done = await until(bob, 'demo', winners[0].body.exportId);
      expect(done.rowCount).toBe(BULK_ROWS);
      // The slot is free again.
      const next = await exportCall(bob, 'demo', { filename: 'after-race', maxRows: 10 });
      expect(await jsonOf(next)).toMatchObject({ status: 'completed', rowCount: 10 });
    });

    it('the same body sent concurrently rejoins one export', async () => {
      const body = { filename: 'together', columns: ['page', 'serve_time'], waitSeconds: 0 };
      const answers = await Promise.all([1, 2, 3].map(async () => jsonOf(await exportCall(bob, 'demo', body))));
      expect(new Set(answers.map((a) => a.exportId)).size).toBe(1);
      expect(answers.every((a) => a.status === 'running' || a.status === 'completed')).toBe(true);
      const done = await until(bob, 'demo', answers[0].exportId);
      const csv = await (await download(done.downloadUrl)).text();
      expect(csv.split('\r\n')[0]).toBe('"page","serve_time"');
      expect(done.sizeBytes).toBe(Buffer.byteLength(csv));
    });
  });

  describe("GET …/data-explorer/exports: the caller's exports", () => {
    const list = async (token: string, website: string) => {
      const response = await fetch(`${api}/api/websites/${website}/data-explorer/exports`, { headers: headers(token) });
      return { status: response.status, body: await jsonOf(response) };
    };

    it('lists the user\'s exports on this website, newest first, each as its status reads, completed ones with a freshly signed link', async () => {
      const { status: code, body } = await list(ann, 'small');
      expect(code).toBe(200);
      const ids: number[] = body.exports.map((e: { exportId: number }) => e.exportId);
      // The completed export, its maxRows 3 sibling and the comparison ones, at least.
      expect(ids.length).toBeGreaterThanOrEqual(3);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      for (const record of body.exports) {
        expect(record).toEqual(await jsonOf(await status(ann, 'small', record.exportId)));
        expect(record).toMatchObject({ startedFrom: 'api', createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/) });
      }
      const completed = body.exports.find((e: { status: string }) => e.status === 'completed');
      // Past the link's lifetime: the old link is gone, the list signs a new one that opens the file.
      clock.advance(601_000);
      try {
        expect((await download(completed.downloadUrl)).status).toBe(410);
        const again = (await list(ann, 'small')).body.exports.find((e: { exportId: number }) => e.exportId === completed.exportId);
        expect(again.downloadUrl).not.toBe(completed.downloadUrl);
        expect((await download(again.downloadUrl)).status).toBe(200);
      } finally {
        clock.advance(-601_000);
      }
    });

    it("never lists another user's exports, nor the user's exports on another website", async () => {
      const bobsOnDemo = (await list(bob, 'demo')).body.exports.map((e: { exportId: number }) => e.exportId);
      expect(bobsOnDemo.length).toBeGreaterThanOrEqual(3);
      const annsOnSmall = (await list(ann, 'small')).body.exports.map((e: { exportId: number }) => e.exportId);
      // Same account (demo) or same website (small): each sees only their own.
      expect(await list(ann, 'demo')).toEqual({ status: 200, body: { exports: [] } });
      expect(await list(bob, 'small')).toEqual({ status: 200, body: { exports: [] } });
      expect(bobsOnDemo.filter((id: number) => annsOnSmall.includes(id))).toEqual([]);
      for (const id of bobsOnDemo) expect((await status(bob, 'demo', id)).status).toBe(200);
      // A website the user has no role on: refused, as every Data Explorer endpoint.
      expect(await list(ann, 'nowhere')).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    });
  });

  describe('restarts', () => {
    it('keeps records and files, fails an export cut off by a crash and frees its slot, and sweeps after the retention', async () => {
      const completed = await jsonOf(await exportCall(ann, 'small', { filename: 'kept' }));
      expect(completed.status).toBe('completed');
      // What a kill during an export leaves behind: a start in the log, no outcome, the engine's staging file, maybe its object
      // (published just before the kill), and an object no record names (its expiry cut off between the removal and the record).
      const exportId = 10_000;
      const cutAt = clock.now();
      await running.runtime.ports.eventLog!.append(TOPICS.exports, [
        envelope(
          EXPORT_STARTED,
          1,
          {
            exportId, fileId: 'f', accountId: 'starter', websiteId: 'small', userId: 'ann', explorerKey: 'events', questionHash: 'h',
            columns: ['page'], maxRows: 10, filename: 'cut.csv', window: { start: new Date(0).toISOString(), end: new Date(86_400_000).toISOString() },
          },
          { id: 'crash-start', occurredAt: new Date(cutAt), key: 'starter' },
        ),
      ]);
      await running.close();
      mkdirSync(path.join(config.data_dir, 'export-staging'), { recursive: true });
      writeFileSync(path.join(config.data_dir, 'export-staging', `${exportId}.csv`), '"page"\r\n');
      writeFileSync(path.join(config.data_dir, 'exports', `${exportId}.csv`), '"page"\r\n');
      writeFileSync(path.join(config.data_dir, 'exports', '9999.csv'), '"page"\r\n');
      await start();

      // Recorded without startedFrom, as before the field existed: it reads as started through the API.
      expect(await jsonOf(await status(ann, 'small', exportId))).toEqual({
        status: 'failed', exportId, error: 'INTERRUPTED', errorMessage: expect.any(String), startedFrom: 'api', createdAt: new Date(cutAt).toISOString().replace(/Z$/, '+00:00'),
      });
      const kept = await jsonOf(await status(ann, 'small', completed.exportId));
      expect(kept).toMatchObject({ status: 'completed', rowCount: completed.rowCount });
      expect(await (await download(kept.downloadUrl)).text()).toContain('"page"');
      // The slot is free: a new export runs (and ids keep increasing past the replayed ones).
      const after = await jsonOf(await exportCall(ann, 'small', { filename: 'after-crash' }));
      expect(after).toMatchObject({ status: 'completed', exportId: exportId + 1 });
      expect(readdirSync(path.join(config.data_dir, 'export-staging'))).toEqual([]);
      // Only the completed exports' files are left: the interrupted one's and the unknown one are swept.
      const files = readdirSync(path.join(config.data_dir, 'exports'));
      expect(files).toContain(`${completed.exportId}.csv`);
      expect(files.filter((f) => [`${exportId}.csv`, '9999.csv'].includes(f) || !/^\d+\.csv$/.test(f))).toEqual([]);

      // Past the retention, the next sweep (every start runs one) removes files and records.
      clock.advance(25 * 3_600_000);
      await running.close();
      await start();
      const gone = await status(ann, 'small', completed.exportId);
      expect(gone.status).toBe(404);
      expect(await download(kept.downloadUrl).then((r) => r.status)).toBe(403);
      expect(readdirSync(path.join(config.data_dir, 'exports'))).toEqual([]);
      expect(existsSync(path.join(config.data_dir, 'export-staging')) ? readdirSync(path.join(config.data_dir, 'export-staging')) : []).toEqual([]);
    });
  });
});

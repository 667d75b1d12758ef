import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { jsonOf, rawRequest, removeTestDataDir, testConfig } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { botRequest, issueToken, recordAndWait } from './explorer-fixtures';

/** Headers a client (or an attacker in front of one) may send to steer where a link points. */
const FORGED = { host: 'evil.test', 'x-forwarded-host': 'evil.test', 'x-forwarded-proto': 'https', forwarded: 'host=evil.test;proto=https' };

describe.each([
  ['without exports.public_base_url: the address the public API listens on', undefined],
  // download_redirect on the file object store, which presigns no URL: the file streams as without it.
  ['with exports.public_base_url and download_redirect', 'https://api.example.com/bpc'],
])('export download links and file names (%s)', (_, publicBaseUrl) => {
  let running: RunningApps;
  let api: string;
  let token: string;
  let record: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

  beforeAll(async () => {
    const config = testConfig('standalone', { scheduler: { enabled: false }, ...(publicBaseUrl ? { exports: { public_base_url: publicBaseUrl, download_redirect: true } } : {}) });
    running = await startApps(standaloneApps, config, createLogger('silent', 'exports-links'));
    api = running.urls['public-api']!;
    token = (await issueToken(api, { user: 'ann', website: 'demo', role: 'readonly' })).token;
    await recordAndWait(running, [botRequest('demo', new Date(Date.now() - 60_000))], 'demo', 1);
    const response = await fetch(`${api}/api/websites/demo/data-explorer/events/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ filename: '\u202etxt.exe', waitSeconds: 20 }),
    });
    expect(response.status).toBe(200);
    record = await jsonOf(response);
    expect(record.status).toBe('completed');
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
  });

  const base = () => publicBaseUrl ?? api;

  it('builds downloadUrl from configuration, whatever Host and forwarding headers the request carries', async () => {
    expect(record.downloadUrl.startsWith(`${base()}/exports/download/${record.exportId}?expires=`)).toBe(true);
    const forged = await rawRequest(api, `/api/websites/demo/data-explorer/export/${record.exportId}/status`, { headers: { ...FORGED, authorization: `Bearer ${token}` } });
    expect(forged.status).toBe(200);
    const { downloadUrl } = JSON.parse(forged.body.toString('utf8'));
    expect(downloadUrl.startsWith(`${base()}/exports/download/${record.exportId}?expires=`)).toBe(true);
    expect(downloadUrl).not.toContain('evil.test');
  });

  it('strips bidirectional and invisible format characters from the stored name and the Content-Disposition header', async () => {
    expect(record.filename).toBe('txt.exe.csv');
    const link = new URL(record.downloadUrl);
    const download = await fetch(`${api}${link.pathname.replace(/^\/bpc/, '')}${link.search}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="txt.exe.csv"; filename*=UTF-8''txt.exe.csv`);
  });
});

import { loadConfig } from '@bpc/config';
import path from 'node:path';
import { freePort } from '@bpc/testing';
import { startConfiguredDemoSite } from './configured-demo-site';
import { DemoSiteServer } from './demo-site-server';

const DEMO_CONFIG = path.join(__dirname, '../../../../deploy/config/demo.yaml');

describe('the demo site server', () => {
  let server: DemoSiteServer;
  let url: string;

  beforeAll(async () => {
    server = new DemoSiteServer('https://www.example.com');
    url = await server.start(0);
  });
  afterAll(() => server.stop());

  it('answers GET and HEAD as the site does, and nothing else', async () => {
    const robots = await fetch(`${url}/robots.txt`);
    expect([robots.status, await robots.text()]).toEqual([200, expect.stringContaining('Sitemap: https://www.example.com/sitemap_index.xml')]);
    const head = await fetch(`${url}/`, { method: 'HEAD' });
    expect([head.status, Number(head.headers.get('content-length')) > 0, await head.text()]).toEqual([200, true, '']);
    expect((await fetch(`${url}/`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${url}/old-catalogue`, { redirect: 'manual' })).headers.get('location')).toBe('/products');
  });

  it("is started by the demo configuration at its host's origin, and by no other", async () => {
    const port = await freePort();
    const demo = loadConfig({ file: DEMO_CONFIG, env: { BPC__HOSTS__0__ORIGIN: `http://127.0.0.1:${port}` } });
    const started = await startConfiguredDemoSite(demo);
    try {
      expect(started?.url).toBe(`http://127.0.0.1:${port}`);
      expect(await (await fetch(`${started!.url}/sitemap_index.xml`)).text()).toContain('https://www.example.com/sitemaps/pages.xml');
    } finally {
      await started?.server.stop();
    }
    expect(await startConfiguredDemoSite({ ...demo, demo_site: undefined })).toBeUndefined();
  });
});

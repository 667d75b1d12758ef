import { mayCrawl, robotsFileOf } from '@bpc/robots-txt';
import { demoSite, demoSiteAnswer, SLOW_PAGE_DELAY_MS } from './demo-site-answer';

const BASE = 'https://www.example.com';
const site = demoSite(BASE);
const answer = (target: string) => demoSiteAnswer(site, target);
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map(([, loc]) => loc);

describe('the demo site answers', () => {
  it('robots.txt naming the sitemap index, which lists both sitemaps; together they list every page once, on the public host', () => {
    expect(answer('/robots.txt').body).toContain(`Sitemap: ${BASE}/sitemap_index.xml`);
    const index = answer('/sitemap_index.xml');
    expect(index.headers['content-type']).toBe('application/xml');
    const sitemaps = locs(index.body);
    expect(sitemaps).toEqual([`${BASE}/sitemaps/products.xml`, `${BASE}/sitemaps/pages.xml`]);
    const listed = sitemaps.flatMap((url) => locs(answer(new URL(url).pathname).body));
    expect(listed.sort()).toEqual([...site.pages.keys()].map((path) => `${BASE}${path}`).sort());
  });

  it("robots.txt keeps AI training crawlers out of the docs and Bytespider and AhrefsBot out of everything, as the demo traffic's verdicts say", () => {
    const file = robotsFileOf(`${BASE}/robots.txt`, { kind: 'answered', status: 200, body: Buffer.from(answer('/robots.txt').body) });
    const may = (bot: string, path: string) => mayCrawl(file, bot, `${BASE}${path}`);
    expect([may('GPTBot', '/docs/a'), may('GPTBot', '/pricing'), may('GPTBot', '/admin/'), may('ChatGPT-User', '/docs/a'), may('Bytespider', '/'), may('AhrefsBot', '/pricing'), may('Googlebot', '/admin/x')]).toEqual([false, true, false, true, false, false, false]);
  });

  it('every page as an empty shell that only its script fills', () => {
    const home = answer('/');
    expect([home.status, home.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
    expect(home.body).toContain('<script src="/assets/app.js" defer></script>');
    expect(home.body).not.toContain('<h1>');
    expect(home.body).not.toContain('prerenderReady');
    expect(answer('/assets/app.js').headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it("a page's content to its script, and the not-found view for a path it does not have", () => {
    expect(JSON.parse(answer('/content.json?path=%2Fproducts%2Fridge-tent').body)).toMatchObject({ path: '/products/ridge-tent', headings: ['Ridge Tent'] });
    expect(JSON.parse(answer('/content.json?path=%2Fnowhere').body)).toMatchObject({ path: '/nowhere', headings: ['Page not found'], behaviour: 'soft-404' });
  });

  it('a path it does not have with 200 (a soft 404), a retired product too', () => {
    expect(answer('/nowhere').status).toBe(200);
    expect(answer('/products/retired-lantern').status).toBe(200);
  });

  it('a moved page with a redirect, the slow page late, the prerenderReady page not ready at first', () => {
    expect(answer('/old-catalogue')).toMatchObject({ status: 301, headers: { location: '/products' } });
    expect(answer('/slow/delivery-times').delayMs).toBe(SLOW_PAGE_DELAY_MS);
    expect(answer('/').delayMs).toBeUndefined();
    expect(answer('/ready/stock-levels').body).toContain('<script>window.prerenderReady = false;</script>');
  });

  it('pictures as small SVGs', () => {
    expect(answer('/images/ridge-tent-1.svg')).toMatchObject({ status: 200, headers: { 'content-type': 'image/svg+xml' } });
  });
});

import { chromium, type Browser, type Page } from 'playwright-core';
import { DemoSiteServer } from './demo-site-server';

const BROWSER_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/** The demo site's pages in Debian's headless Chromium: what its script builds, as a renderer sees it. */
describe('the page script, in Chromium', () => {
  let server: DemoSiteServer;
  let site: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = new DemoSiteServer('https://www.example.com');
    site = await server.start(0);
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: BROWSER_ARGS });
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server.stop();
  });

  /** Opens a page and waits for its script to have built the body. */
  const open = async (path: string) => {
    await page.goto(`${site}${path}`);
    await page.locator('#app main').waitFor();
  };

  it("builds the page's head and body from its content", async () => {
    await open('/products/ridge-tent');
    expect(await page.title()).toBe('Ridge Tent | Example Outdoor');
    expect(await page.locator('meta[name=description]').getAttribute('content')).toContain('Ridge Tent');
    expect(await page.locator('link[rel=canonical]').getAttribute('href')).toBe('https://www.example.com/products/ridge-tent');
    expect(JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!)).toMatchObject({ '@type': 'Product', name: 'Ridge Tent' });
    expect(await page.locator('h1').allTextContents()).toEqual(['Ridge Tent']);
    expect(await page.locator('main p').count()).toBe(4);
    expect(await page.locator('nav a').allTextContents()).toEqual(['Home', 'All products']);
    expect(await page.locator('img').evaluateAll((images) => images.map((image) => image.getAttribute('alt')))).toEqual(['Ridge Tent, view 1', 'Ridge Tent, view 2']);
  });

  it('builds the defects as they are: no title, a noindex robots meta, images without alt, two h1', async () => {
    await open('/legal/imprint');
    expect(await page.locator('title').count()).toBe(0);
    await open('/drafts/spring-collection');
    expect(await page.locator('meta[name=robots]').getAttribute('content')).toBe('noindex');
    await open('/gallery/camp');
    expect(await page.locator('img:not([alt])').count()).toBe(2);
    await open('/campaigns/summer');
    expect(await page.locator('h1').count()).toBe(3);
  });

  it('shows the not-found view for a path the site does not have', async () => {
    await open('/nowhere');
    expect(await page.locator('h1').allTextContents()).toEqual(['Page not found']);
  });

  it('holds prerenderReady false until the prerenderReady page is built', async () => {
    await page.goto(`${site}/ready/stock-levels`);
    expect(await page.evaluate('window.prerenderReady')).toBe(false);
    await page.waitForFunction('window.prerenderReady === true');
    expect(await page.locator('h1').allTextContents()).toEqual(['Stock levels']);
  });
});

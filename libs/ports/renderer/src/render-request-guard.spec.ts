import { AddressPolicy } from '@bpc/egress';
import { judgeRenderRequest, type RenderRequestFacts } from './render-request-guard';

describe('judgeRenderRequest', () => {
  const page = new URL('http://127.0.0.1:4000/pricing');
  const rules = { trustedOrigin: new URL('http://127.0.0.1:4000'), addresses: new AddressPolicy({ ownAddresses: () => [] }) };
  const request = (url: string, facts: Partial<RenderRequestFacts> = {}): RenderRequestFacts => ({
    url,
    resourceType: 'script',
    mainFrameNavigation: false,
    redirected: false,
    initialNavigation: false,
    ...facts,
  });
  const navigation = (url: string, facts: Partial<RenderRequestFacts> = {}) => request(url, { resourceType: 'document', mainFrameNavigation: true, ...facts });

  it("lets the render's own navigation go, and reads the origin's redirect as the page", () => {
    expect(judgeRenderRequest(navigation(page.href, { initialNavigation: true }), page, rules)).toEqual({ kind: 'continue' });
    expect(judgeRenderRequest(navigation('http://127.0.0.1:3003/metrics', { initialNavigation: true, redirected: true }), page, rules)).toEqual({ kind: 'origin-redirect' });
  });

  it('fails the render when the main frame later leaves the page host (script, meta refresh, timer), or its redirect does', () => {
    expect(judgeRenderRequest(navigation('http://127.0.0.1:3003/metrics'), page, rules)).toEqual({ kind: 'navigated-away', reason: 'to http://127.0.0.1:3003' });
    expect(judgeRenderRequest(navigation('https://elsewhere.example/'), page, rules)).toMatchObject({ kind: 'navigated-away' });
    expect(judgeRenderRequest(navigation('http://127.0.0.1:3003/', { redirected: true }), page, rules)).toMatchObject({ kind: 'navigated-away' });
    expect(judgeRenderRequest(navigation('https://127.0.0.1:4000/'), page, rules)).toMatchObject({ kind: 'navigated-away' });
  });

  it('lets the main frame move within the page host', () => {
    expect(judgeRenderRequest(navigation('http://127.0.0.1:4000/other'), page, rules)).toEqual({ kind: 'continue' });
  });

  it('refuses subresources and frames on internal addresses but lets public hosts (CDNs) and the trusted origin serve them', () => {
    expect(judgeRenderRequest(request('http://127.0.0.1:3003/x.css', { resourceType: 'stylesheet' }), page, rules)).toMatchObject({ kind: 'refuse' });
    expect(judgeRenderRequest(request('http://[::1]:3000/frame', { resourceType: 'document' }), page, rules)).toMatchObject({ kind: 'refuse' });
    expect(judgeRenderRequest(request('file:///etc/passwd', { resourceType: 'fetch' }), page, rules)).toMatchObject({ kind: 'refuse' });
    expect(judgeRenderRequest(request('https://cdn.example.com/app.js'), page, rules)).toEqual({ kind: 'continue' });
    expect(judgeRenderRequest(request('http://127.0.0.1:4000/data.json', { resourceType: 'fetch' }), page, rules)).toEqual({ kind: 'continue' });
  });

  it('skips images, media and fonts, and lets local schemes be', () => {
    expect(judgeRenderRequest(request('https://cdn.example.com/a.png', { resourceType: 'image' }), page, rules)).toEqual({ kind: 'skip' });
    expect(judgeRenderRequest(request('data:image/png;base64,AA==', { resourceType: 'image' }), page, rules)).toEqual({ kind: 'skip' });
    expect(judgeRenderRequest(request('blob:http://127.0.0.1:4000/uuid', { resourceType: 'fetch' }), page, rules)).toEqual({ kind: 'continue' });
  });
});

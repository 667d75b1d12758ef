import { gunzipSync } from 'node:zlib';
import { renderMarkdown } from '@bpc/renderer';
import { markdownConverter } from './markdown-converter';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const request = (html: string) => ({ url: 'https://www.example.com/guide', html, renderedAt: '2026-12-07T08:00:00.000Z', canonical: null });

describe('Markdown conversions in their worker thread', () => {
  const converter = markdownConverter(silent);
  afterAll(() => converter.close());

  it('answers what renderMarkdown gives, with its gzipped form', async () => {
    const html = '<html lang="en"><head><title>Guide</title></head><body><main><h1>Guide</h1><p>Built by <a href="/js">scripts</a>.</p></main></body></html>';
    const answer = await converter.convert(request(html));
    const expected = renderMarkdown(request(html));
    expect([Buffer.from(answer.raw).toString(), answer.tokens, answer.truncated]).toEqual([expected.markdown, expected.tokens, false]);
    expect(gunzipSync(answer.gzipped).toString()).toBe(expected.markdown);
  });

  it('leaves the serving thread free while a page takes long to convert', async () => {
    const huge = `<html><body><p>small</p><div hidden>${'x'.repeat(8 * 1024 * 1024)}</div></body></html>`;
    let longestTurnMs = 0;
    let last = performance.now();
    let done = false;
    const started = performance.now();
    const converting = converter.convert(request(huge)).finally(() => (done = true));
    // Turns of this thread's event loop while the worker converts: none may be held for long.
    while (!done) {
      await new Promise((resolve) => setImmediate(resolve));
      const now = performance.now();
      longestTurnMs = Math.max(longestTurnMs, now - last);
      last = now;
    }
    await converting;
    const tookMs = performance.now() - started;
    expect(longestTurnMs).toBeLessThan(tookMs / 2);
  }, 60_000);
});

import { gunzipSync, gzipSync } from 'node:zlib';
import type { CacheEntry } from '@bpc/cache-store';
import { renderMarkdown } from '@bpc/renderer';
import { AgentMarkdown, ConvertMarkdown, MarkdownRequest } from './agent-markdown';

const entryOf = (bodyPath: string, over: Partial<CacheEntry> = {}): CacheEntry => ({
  hostId: 1,
  url: 'https://www.example.com/guide',
  dimensionId: 1,
  kind: 'render',
  statusCode: 200,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  durationMs: 10,
  createdAt: Date.UTC(2026, 11, 7, 8),
  expiresAt: Date.UTC(2026, 11, 8, 8),
  bytes: 100,
  bodyPath,
  ...over,
});
const quiet = { converted: () => undefined, failed: () => undefined };
const HTML = Buffer.from('<html lang="en"><head><title>Guide</title></head><body><main><h1>Guide</h1><p>Built by <a href="/js">scripts</a>.</p></main></body></html>');

/** The real conversion, in this thread, counting its calls (and able to fail or hold them). */
function counted(): { convert: ConvertMarkdown; calls: MarkdownRequest[]; failNext: () => void } {
  const calls: MarkdownRequest[] = [];
  let fail = false;
  const convert: ConvertMarkdown = async (request) => {
    calls.push(request);
    if (fail) throw new Error('converter broke');
    const { markdown, tokens, truncated } = renderMarkdown(request);
    const raw = Buffer.from(markdown);
    return { raw, gzipped: gzipSync(raw), tokens, truncated };
  };
  return { convert, calls, failNext: () => (fail = true) };
}

describe('Markdown for agents, converted once per stored render', () => {
  it('converts a render on first request, with its URL, render time and canonical, then serves it kept', async () => {
    const { convert, calls } = counted();
    const markdown = new AgentMarkdown(1024 * 1024, convert, quiet);
    const entry = entryOf('b/1', { facts: { canonical: 'https://www.example.com/guide?canonical' } as CacheEntry['facts'] });
    const first = await markdown.of(entry, entry.url, HTML);
    expect(first!.raw.toString()).toContain('# Guide');
    expect(first!.raw.toString()).toContain('[scripts](https://www.example.com/js)');
    expect(first!.raw.toString()).toContain('url: "https://www.example.com/guide?canonical"');
    expect(first!.raw.toString()).toContain('rendered_at: "2026-12-07T08:00:00.000Z"');
    expect(gunzipSync(first!.gzipped).equals(first!.raw)).toBe(true);
    expect(first!.tokens).toBeGreaterThan(0);
    // Kept: answered without a promise, not converted again.
    expect(markdown.of(entry, entry.url, HTML)).toBe(first);
    expect(calls).toHaveLength(1);
  });

  it('shares one conversion between concurrent requests, and converts a new body file (a re-render) anew', async () => {
    const { convert, calls } = counted();
    const markdown = new AgentMarkdown(1024 * 1024, convert, quiet);
    const answers = await Promise.all(Array.from({ length: 5 }, () => markdown.of(entryOf('b/1'), 'https://www.example.com/guide', HTML)));
    expect(new Set(answers).size).toBe(1);
    await markdown.of(entryOf('b/2'), 'https://www.example.com/guide', HTML);
    expect(calls).toHaveLength(2);
  });

  it('remembers a render that could not be converted: the caller serves HTML, the converter is not asked again', async () => {
    const { convert, calls, failNext } = counted();
    const failures: string[] = [];
    const markdown = new AgentMarkdown(1024 * 1024, convert, { converted: () => undefined, failed: (_error, entry) => void failures.push(entry.bodyPath) });
    failNext();
    expect(await markdown.of(entryOf('b/bad'), 'https://www.example.com/guide', HTML)).toBeUndefined();
    expect(markdown.of(entryOf('b/bad'), 'https://www.example.com/guide', HTML)).toBeUndefined();
    expect([calls.length, failures]).toEqual([1, ['b/bad']]);
  });

  it('keeps at most its bytes, the least recently used evicted first', async () => {
    const { convert, calls } = counted();
    const one = await new AgentMarkdown(1024 * 1024, convert, quiet).of(entryOf('probe'), 'https://www.example.com/guide', HTML);
    const size = one!.raw.length + one!.gzipped.length;
    const markdown = new AgentMarkdown(size * 2, convert, quiet);
    for (const path of ['a', 'b', 'a', 'c']) await markdown.of(entryOf(path), 'https://www.example.com/guide', HTML);
    expect(markdown.usage()).toEqual({ entries: 2, bytes: size * 2 });
    calls.length = 0;
    await markdown.of(entryOf('a'), 'https://www.example.com/guide', HTML);
    await markdown.of(entryOf('b'), 'https://www.example.com/guide', HTML);
    expect(calls.map((c) => c.url)).toHaveLength(1);
  });
});

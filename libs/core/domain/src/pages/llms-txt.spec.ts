import { llmsTxt, LlmsTxtPage, MAX_LLMS_TXT_BYTES, sectionOf } from './llms-txt';

const site = { name: 'Example', summary: 'Widgets, guides\nand a shop.' };
const page = (path: string, over: Partial<LlmsTxtPage> = {}): LlmsTxtPage => ({
  url: `https://www.example.com${path}`,
  title: `Title of ${path}`,
  description: `About ${path}.`,
  noindex: false,
  canonical: null,
  ...over,
});

describe('llms.txt from the cached pages', () => {
  it('lists indexable pages by first path segment, the site name and summary first', () => {
    const { text, listed, leftOut } = llmsTxt(site, [
      page('/docs/b'),
      page('/'),
      page('/docs/a', { description: null }),
      page('/blog/x', { noindex: true }),
      page('/blog/y', { canonical: 'https://www.example.com/blog/z' }),
      page('/blog/z', { canonical: 'https://www.example.com/blog/z#top', title: 'Z [draft]' }),
      page('/pricing'),
    ]);
    expect(text).toBe(
      [
        '# Example',
        '',
        '> Widgets, guides and a shop.',
        '',
        '## Pages',
        '',
        '- [Title of /](https://www.example.com/): About /.',
        '- [Title of /pricing](https://www.example.com/pricing): About /pricing.',
        '',
        '## blog',
        '',
        '- [Z \\[draft\\]](https://www.example.com/blog/z): About /blog/z.',
        '',
        '## docs',
        '',
        '- [Title of /docs/a](https://www.example.com/docs/a)',
        '- [Title of /docs/b](https://www.example.com/docs/b): About /docs/b.',
        '',
      ].join('\n'),
    );
    expect({ listed, leftOut }).toEqual({ listed: 5, leftOut: 0 });
  });

  it('keeps a hostile URL or title from breaking the list', () => {
    const { text } = llmsTxt(site, [page('/a(b)%20c', { title: 'one\n## two', description: 'line\n- item' })]);
    expect(text).toContain('- [one ## two](https://www.example.com/a%28b%29%20c): line - item\n');
  });

  it('stays under its cap on whole lines and says how many pages it left out', () => {
    const pages = Array.from({ length: 5_000 }, (_, n) => page(`/docs/page-${n}`, { description: 'x'.repeat(80) }));
    const { text, listed, leftOut } = llmsTxt(site, pages);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_LLMS_TXT_BYTES);
    expect(listed + leftOut).toBe(5_000);
    expect(leftOut).toBeGreaterThan(0);
    expect(text.endsWith(`\n${leftOut} more pages are cached but not listed: this file is kept under 256 KB.\n`)).toBe(true);
  });

  it('leaves the blockquote out when the site has no summary', () => {
    expect(llmsTxt({ name: 'Example', summary: ' ' }, [page('/')]).text).toBe('# Example\n\n## Pages\n\n- [Title of /](https://www.example.com/): About /.\n');
  });

  it("names a page's section by its first path segment", () => {
    expect(sectionOf('https://www.example.com/')).toBe('Pages');
    expect(sectionOf('https://www.example.com/about')).toBe('Pages');
    expect(sectionOf('https://www.example.com/caf%C3%A9/menu')).toBe('café');
  });
});

import { countTokens } from 'gpt-tokenizer';
import { MAX_MARKDOWN_CHARS, renderMarkdown } from './render-markdown';

const URL_ = 'https://www.example.com/guides/widgets';
const RENDERED_AT = '2026-12-07T08:00:00.000Z';
const markdownOf = (html: string, canonical?: string) => renderMarkdown({ url: URL_, html, renderedAt: RENDERED_AT, canonical });

const paragraph = (n: number) => `<p>Widgets are small devices, and paragraph ${n} explains at some length why a careful reader would choose a blue one over a red one in most kitchens.</p>`;

/** A rendered page: chrome around an article that scripts built. */
const PAGE = `<!doctype html><html lang="en"><head><title>How to choose a widget</title>
<meta name="description" content="A guide to widgets."><style>p { color: red }</style><script>window.app = 1</script></head>
<body><header><nav><a href="/">Home</a> <a href="/shop">Shop</a></nav></header>
<main><article><h1>How to choose a widget</h1>
${paragraph(1)}${paragraph(2)}
<h2>Sizes</h2>
<table><thead><tr><th>Size</th><th>Width</th></tr></thead><tbody><tr><td>Small</td><td>2 cm</td></tr><tr><td>Large</td><td>9 cm</td></tr></tbody></table>
<ul><li>Blue</li><li>Red</li></ul>
<pre><code>npm install widget</code></pre>
<p>Read the <a href="../faq?x=1">FAQ</a> or <a href="javascript:alert(1)">this</a>. <img src="/img/w.png" alt="a widget"></p>
${paragraph(3)}${paragraph(4)}
</article></main>
<footer><p>© Example · <a href="/legal">Legal</a></p></footer></body></html>`;

describe('Markdown of a rendered page, for agents', () => {
  const { markdown, tokens, truncated } = markdownOf(PAGE, 'https://www.example.com/guides/widgets');

  it('starts with a front matter and the title as the first heading', () => {
    expect(markdown.startsWith(
      ['---', 'title: "How to choose a widget"', 'url: "https://www.example.com/guides/widgets"', 'description: "A guide to widgets."', 'lang: "en"', `rendered_at: "${RENDERED_AT}"`, '---', '', '# How to choose a widget', ''].join('\n'),
    )).toBe(true);
    expect(markdown.match(/^# /gm)).toHaveLength(1);
  });

  it('keeps the main content: headings, tables, lists, code blocks, absolute links and images', () => {
    expect(markdown).toContain('## Sizes');
    expect(markdown).toContain('| Size | Width |\n| --- | --- |\n| Small | 2 cm |');
    expect(markdown).toMatch(/^-\s+Blue$/m);
    expect(markdown).toContain('```\nnpm install widget\n```');
    expect(markdown).toContain('[FAQ](https://www.example.com/faq?x=1)');
    expect(markdown).toContain('![a widget](https://www.example.com/img/w.png)');
    expect(markdown).toContain('paragraph 4 explains');
  });

  it('drops scripts, styles and the page chrome', () => {
    expect(markdown).not.toMatch(/window\.app|color: red|Shop|Legal|javascript:/);
  });

  it('counts its tokens with the named tokenizer, far fewer than the HTML', () => {
    expect(tokens).toBe(countTokens(markdown));
    expect(tokens).toBeLessThan(countTokens(PAGE));
    expect(truncated).toBe(false);
  });

  it('converts the whole body when no main content stands out, and omits what the page lacks', () => {
    const { markdown: bare } = markdownOf('<body><p>Just <b>one</b> line.</p></body>');
    expect(bare).toBe(['---', `url: "${URL_}"`, `rendered_at: "${RENDERED_AT}"`, '---', '', 'Just **one** line.', ''].join('\n'));
  });

  it('keeps a hostile title inside the front matter', () => {
    const { markdown: odd } = markdownOf('<title>"---\nevil: yes</title><p>x</p>');
    expect(odd.split('\n').slice(0, 3)).toEqual(['---', 'title: "\\"--- evil: yes"', `url: "${URL_}"`]);
  });

  describe('pages built to break converters', () => {
    it('deep nesting', () => {
      const deep = `${'<div>'.repeat(20_000)}deep text${'</div>'.repeat(20_000)}`;
      expect(markdownOf(`<body>${deep}</body>`).markdown).toContain('deep text');
    });

    it('100,000 table cells', () => {
      const rows = Array.from({ length: 10_000 }, (_, r) => `<tr>${Array.from({ length: 10 }, (_, c) => `<td>${c ? 'x' : `row ${r}`}</td>`).join('')}</tr>`).join('');
      const { markdown: table } = markdownOf(`<body><table>${rows}</table></body>`);
      expect(table).toContain('row 0');
      expect(table.length).toBeLessThan(MAX_MARKDOWN_CHARS + 200);
    });

    it('comment sequences', () => {
      expect(markdownOf('<body><p>before</p><!-- <p>hidden</p> --!><!--><p>after</p><!-- unclosed').markdown).toMatch(/before[\s\S]*after/);
    });

    it('a page whose Markdown exceeds the cap is cut and says so', () => {
      const huge = Array.from({ length: 12_000 }, (_, n) => paragraph(n)).join('');
      const { markdown: cutMarkdown, truncated: cut } = markdownOf(`<body><main>${huge}</main></body>`);
      expect(cut).toBe(true);
      expect(cutMarkdown.length).toBeLessThan(MAX_MARKDOWN_CHARS + 200);
      expect(cutMarkdown).toMatch(/\[Truncated: the page is longer than 1000000 characters of Markdown\.\]\n$/);
    });
  });
});
